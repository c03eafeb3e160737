/* sources: ws_frame.c sha1.c
 * test_ws_frame.c: the POSIX server's WebSocket pieces: the handshake's accept value (RFC 6455's sample),
 * keys, frame heads of each length form and every rule a head must keep, the answer to a close frame,
 * and UTF-8 at its boundaries (RFC 3629). */
#include "check.h"
#include "tessera_ws_frame.h"

static void test_handshake(void) {
  char accept[29];
  tessera_ws_accept("dGhlIHNhbXBsZSBub25jZQ==", accept); /* RFC 6455 1.3 */
  CHECK(strcmp(accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") == 0);
  CHECK(tessera_ws_key_valid("dGhlIHNhbXBsZSBub25jZQ=="));
  CHECK(!tessera_ws_key_valid("dGhlIHNhbXBsZSBub25jZQ="));
  CHECK(!tessera_ws_key_valid("dGhlIHNhbXBsZSBub25jZ*=="));
  CHECK(!tessera_ws_key_valid(""));
}

static void test_heads(void) {
  tessera_ws_head_t f;
  const uint8_t small[] = {0x82, 0x85, 1, 2, 3, 4};
  CHECK_EQ(tessera_ws_read_head(small, 5, &f), 0); /* the mask is not all there */
  CHECK_EQ(tessera_ws_read_head(small, 6, &f), 6);
  CHECK(f.fin && f.opcode == 2 && f.masked && f.len == 5 && f.mask[3] == 4 && !f.rsv);
  const uint8_t mid[] = {0x01, 0xfe, 0x01, 0x00, 9, 9, 9, 9};
  CHECK_EQ(tessera_ws_read_head(mid, 8, &f), 8);
  CHECK(!f.fin && f.opcode == 1 && f.len == 256);
  const uint8_t big[] = {0x82, 0xff, 0, 0, 0, 0, 0, 1, 0, 0, 7, 7, 7, 7};
  CHECK_EQ(tessera_ws_read_head(big, 13, &f), 0);
  CHECK_EQ(tessera_ws_read_head(big, 14, &f), 14);
  CHECK(f.len == 65536);
}

static tessera_ws_head_t head(int fin, int rsv, int op, int masked, uint64_t len) {
  tessera_ws_head_t f = {fin, rsv, op, masked, len, {0}, 6};
  return f;
}

static void test_rules(void) {
  tessera_ws_head_t ok = head(1, 0, 2, 1, 10);
  CHECK_EQ(tessera_ws_check_head(&ok, 0, 0, 1000), 0);
  tessera_ws_head_t f = head(1, 0x40, 2, 1, 10);
  CHECK_EQ(tessera_ws_check_head(&f, 0, 0, 1000), 1002); /* a reserved bit */
  f = head(1, 0, 3, 1, 1);
  CHECK_EQ(tessera_ws_check_head(&f, 0, 0, 1000), 1002); /* an unknown opcode */
  f = head(1, 0, 2, 0, 1);
  CHECK_EQ(tessera_ws_check_head(&f, 0, 0, 1000), 1002); /* no mask */
  f = head(1, 0, 2, 1, 1ull << 63);
  CHECK_EQ(tessera_ws_check_head(&f, 0, 0, 1000), 1002); /* past 2^63 */
  f = head(0, 0, 9, 1, 1);
  CHECK_EQ(tessera_ws_check_head(&f, 0, 0, 1000), 1002); /* a fragmented ping */
  f = head(1, 0, 9, 1, 126);
  CHECK_EQ(tessera_ws_check_head(&f, 0, 0, 1000), 1002); /* a long ping */
  f = head(1, 0, 0, 1, 1);
  CHECK_EQ(tessera_ws_check_head(&f, 0, 0, 1000), 1002); /* a continuation of nothing */
  CHECK_EQ(tessera_ws_check_head(&f, 2, 5, 1000), 0);    /* of a binary message */
  f = head(1, 0, 1, 1, 1);
  CHECK_EQ(tessera_ws_check_head(&f, 2, 5, 1000), 1002); /* a new message inside one */
  f = head(1, 0, 9, 1, 125);
  CHECK_EQ(tessera_ws_check_head(&f, 2, 5, 1000), 0); /* a ping between fragments */
  f = head(1, 0, 0, 1, 996);
  CHECK_EQ(tessera_ws_check_head(&f, 2, 5, 1000), 1009); /* past the cap with what came before */
  f = head(1, 0, 0, 1, 995);
  CHECK_EQ(tessera_ws_check_head(&f, 2, 5, 1000), 0);
}

static void test_close_answers(void) {
  const uint8_t normal[] = {0x03, 0xe8, 'b', 'y', 'e'}, app[] = {0x0f, 0xa0}, reserved[] = {0x03, 0xed},
                bad_text[] = {0x03, 0xe8, 0xff}, one[] = {0x03};
  CHECK_EQ(tessera_ws_close_answer(NULL, 0), 1000);
  CHECK_EQ(tessera_ws_close_answer(normal, sizeof normal), 1000);
  CHECK_EQ(tessera_ws_close_answer(app, sizeof app), 4000);
  CHECK_EQ(tessera_ws_close_answer(reserved, sizeof reserved), 1002); /* 1005 is never sent */
  CHECK_EQ(tessera_ws_close_answer(bad_text, sizeof bad_text), 1007);
  CHECK_EQ(tessera_ws_close_answer(one, sizeof one), 1002);
}

static void test_utf8(void) {
  static const struct {
    const char *bytes;
    int valid;
  } cases[] = {
      {"", 1},
      {"plain", 1},
      {"\xc2\x80", 1},         /* U+0080 */
      {"\xdf\xbf", 1},         /* U+07FF */
      {"\xe0\xa0\x80", 1},     /* U+0800 */
      {"\xed\x9f\xbf", 1},     /* U+D7FF */
      {"\xef\xbf\xbf", 1},     /* U+FFFF */
      {"\xf0\x90\x80\x80", 1}, /* U+10000 */
      {"\xf4\x8f\xbf\xbf", 1}, /* U+10FFFF */
      {"h\xc3\xa9llo \xe2\x82\xac \xf0\x9d\x84\x9e", 1},
      {"\x80", 0},     /* a lone continuation */
      {"\xc1\xbf", 0}, /* overlong */
      {"\xc0\xaf", 0},
      {"\xe0\x9f\xbf", 0},     /* overlong */
      {"\xed\xa0\x80", 0},     /* a surrogate */
      {"\xf0\x8f\xbf\xbf", 0}, /* overlong */
      {"\xf4\x90\x80\x80", 0}, /* past U+10FFFF */
      {"\xf5\x80\x80\x80", 0},
      {"\xff", 0},
      {"a\xe2\x82", 0},    /* cut at the end */
      {"\xe2\x28\xa1", 0}, /* a bad second byte */
      {"\xe2\x82\x28", 0}, /* a bad third byte */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int got = tessera_utf8_valid((const uint8_t *)cases[i].bytes, strlen(cases[i].bytes));
    if (got != cases[i].valid) fprintf(stderr, "utf8 case %zu\n", i);
    CHECK_EQ(got, cases[i].valid);
  }
}

int main(void) {
  RUN(test_handshake);
  RUN(test_heads);
  RUN(test_rules);
  RUN(test_close_answers);
  RUN(test_utf8);
  return check_summary("test_ws_frame");
}
