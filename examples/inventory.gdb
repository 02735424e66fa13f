# SPDX-License-Identifier: MIT
# A scripted gdb session on a recording of examples/inventory: the program
# prints a wrong total, and a watchpoint run backwards finds the line that
# corrupted it. Run it with
#   rewind replay inventory.rwd -- -batch -x examples/inventory.gdb
echo \n# Stop after the relabel, where the total is already wrong.\n
break inventory.c:47
continue
echo \n# shelf[1].stock should be 300:\n
print shelf[1]
echo \n# Watch the corrupted field and run backwards to the write.\n
watch -l shelf[1].stock
reverse-continue
echo \n# The write is inside strcpy; who called it?\n
backtrace
up
print label
print sizeof shelf[i].label
echo \n# "hex nuts, M8 zinc" is 18 bytes with its NUL, the label holds 12.\n
monitor when
