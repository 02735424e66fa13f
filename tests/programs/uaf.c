/* SPDX-License-Identifier: MIT */
/* A use after free for the memory history (tests/replay/history.sh): an
 * account is freed, its memory goes to a note, and the note's text lands
 * on the balance that the program still reads through the old pointer.
 * The balance's writers: deposit's store of 100, then strcpy into the
 * note; its readers: audit, twice. The helpers are not inlined, so each
 * access stays what the source says at any optimisation level. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct account {
  char name[16];
  long balance;
};

__attribute__((noinline)) void deposit(struct account *a, long v) {
  a->balance = v;
}

__attribute__((noinline)) long audit(const struct account *a) {
  return a->balance;
}

__attribute__((noinline)) void write_note(char *note) {
  strcpy(note, "paid on time, thanks!!"); /* corrupts a->balance */
}

int main(void) {
  struct account *a = malloc(sizeof *a);
  strcpy(a->name, "alice");
  deposit(a, 100);
  long first = audit(a);
  free(a); /* the bug: a is used again below */
  char *note = malloc(sizeof *a);
  write_note(note);
  long now = audit(a); /* use after free */
  printf("balance %ld (was %ld), note: %s\n", now, first, note);
  free(note);
  return 0;
}
