/*
 * read_file.h: a whole file into a malloc'd buffer, for the tests that check the real build outputs
 * (test_image.c, test_ram_image.c). NULL when it cannot be opened or read; the caller frees it.
 */
#ifndef TESSERA_READ_FILE_H
#define TESSERA_READ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint8_t *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) free(b), b = NULL;
  fclose(f);
  *len = b ? (size_t)n : 0;
  return b;
}

#endif
