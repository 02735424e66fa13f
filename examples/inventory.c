// SPDX-License-Identifier: MIT
// An example with a memory-corruption bug, used by the demo and the docs.
// It keeps a small inventory of items; one label is copied without a bounds
// check, overrunning into the neighbouring item's stock count. The program
// then reports a wrong total, far from the line that caused it: the kind of
// bug a watchpoint and reverse-continue find in one step.
// Keep every line and variable visible to gdb whatever CFLAGS say.
#pragma GCC optimize("O0")

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct item {
  char label[12];
  int stock;
};

static struct item *shelf;
static int nitems;

static void add_item(const char *label, int stock) {
  struct item *it = &shelf[nitems++];
  strcpy(it->label, label);  // BUG: no bounds check on the label
  it->stock = stock;
}

static void relabel(int i, const char *label) {
  // BUG: long labels run past label[] into the next item.
  strcpy(shelf[i].label, label);
}

static int total_stock(void) {
  int total = 0;
  for (int i = 0; i < nitems; i++) total += shelf[i].stock;
  return total;
}

int main(void) {
  shelf = calloc(4, sizeof *shelf);
  if (!shelf) return 1;
  add_item("bolts", 120);
  add_item("nuts", 300);
  add_item("washers", 75);
  printf("total before relabel: %d\n", total_stock());
  relabel(1, "hex nuts, M8 zinc");
  printf("total after relabel:  %d (expected 495)\n", total_stock());
  free(shelf);
  return total_stock() == 495 ? 0 : 1;
}
