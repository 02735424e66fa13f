/* SPDX-License-Identifier: MIT */
/* cs_probe: prints what Capstone reports for instruction bytes (id, prefixes,
 * operands with kinds and sizes), to choose the form of a table row.
 *   cs_probe "66 0f fe c1" "f3 48 ab" ... */
#include <capstone/capstone.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  csh h;
  if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK) return 1;
  cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
  for (int a = 1; a < argc; a++) {
    unsigned char b[16];
    size_t n = 0;
    char *p = argv[a];
    cs_insn *in;
    while (*p && n < sizeof b) {
      b[n++] = (unsigned char)strtoul(p, &p, 16);
      while (*p == ' ' || *p == ',') p++;
    }
    if (cs_disasm(h, b, n, 0x1000, 1, &in) != 1) {
      printf("%s: undecodable\n", argv[a]);
      continue;
    }
    cs_x86 *x = &in->detail->x86;
    printf("%-24s %s %s  id=%u len=%u prefix=%02x,%02x,%02x,%02x rex=%02x:",
           argv[a], in->mnemonic, in->op_str, in->id, in->size, x->prefix[0],
           x->prefix[1], x->prefix[2], x->prefix[3], x->rex);
    for (int i = 0; i < x->op_count; i++) {
      cs_x86_op *o = &x->operands[i];
      if (o->type == X86_OP_REG)
        printf(" reg:%s/%u", cs_reg_name(h, o->reg), o->size);
      else if (o->type == X86_OP_IMM)
        printf(" imm:%#llx/%u", (unsigned long long)o->imm, o->size);
      else
        printf(" mem/%u", o->size);
    }
    printf("\n");
    cs_free(in, 1);
  }
  cs_close(&h);
  return 0;
}
