/*
 * check.h: the few macros the C unit tests of the portable layer use (native/test/, run by
 * scripts/c-unit-test.mjs). A test file defines test functions, lists them in main with RUN, and
 * returns check_summary(): each failed CHECK prints its place and the test goes on.
 */
#ifndef TESSERA_CHECK_H
#define TESSERA_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures, check_count, check_tests;

#define CHECK(cond)                                                            \
  do {                                                                         \
    check_count++;                                                             \
    if (!(cond)) {                                                             \
      check_failures++;                                                        \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_EQ(a, b)                                                                                          \
  do {                                                                                                          \
    long long check_a_ = (long long)(a), check_b_ = (long long)(b);                                             \
    check_count++;                                                                                              \
    if (check_a_ != check_b_) {                                                                                 \
      check_failures++;                                                                                         \
      fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %lld, %s == %lld\n", __FILE__, __LINE__, #a, check_a_, #b, \
              check_b_);                                                                                        \
    }                                                                                                           \
  } while (0)

#define RUN(test)                                                          \
  do {                                                                     \
    int before_ = check_failures;                                          \
    check_tests++;                                                         \
    test();                                                                \
    printf("%s %s\n", check_failures == before_ ? "ok  " : "FAIL", #test); \
  } while (0)

static int check_summary(const char *file) {
  printf("%s: %d tests, %d checks, %d failed\n", file, check_tests, check_count, check_failures);
  return check_failures ? 1 : 0;
}

#endif
