/*
 * topology.c: how the emulated panels are wired, exactly as host/src/bus/topology.ts: generated
 * for --panels N, or read from a --topology file {"panels":[{"parent":0},{"parent":1,"edge":1,"inEdge":0}]}.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "posix.h"

int topology_generate(int n, wire_t *w) {
  int count = 0;
  if (n <= 0) return 0;
  w[count++] = (wire_t){0, 0, 0};
  int spine = 1, depth = 0;
  while (count < n) {
    int next = depth % 2 == 0 ? 1 : 2;
    if (depth % 4 == 2 && count + 1 < n) w[count++] = (wire_t){spine, 3 - next, 0};
    w[count++] = (wire_t){spine, next, 0};
    spine = count;
    depth++;
  }
  return count;
}

/* validateTopology of topology.ts, same messages. */
static int validate(const wire_t *w, int n, char *err, int err_len) {
  if (n > MAX_EMULATED_PANELS) return snprintf(err, err_len, "at most %d panels", MAX_EMULATED_PANELS), -1;
  /* used[panel][slot] for panels 0..n (0 = controller, unused) */
  static unsigned char used[MAX_EMULATED_PANELS + 1][3];
  memset(used, 0, sizeof used);
  for (int i = 0; i < n; i++) {
    int id = i + 1;
    const char *names[3] = {"parent", "edge", "inEdge"};
    int vals[3] = {w[i].parent, w[i].edge, w[i].in_edge};
    for (int k = 0; k < 3; k++)
      if (vals[k] < 0) return snprintf(err, err_len, "panels[%d].%s: must be a non-negative integer", i, names[k]), -1;
    if (w[i].edge > 2 || w[i].in_edge > 2) return snprintf(err, err_len, "panels[%d]: edge slots are 0-2", i), -1;
    if (w[i].parent >= id)
      return snprintf(err, err_len, "panels[%d].parent: must name an earlier panel (1-%d) or 0 for the controller", i,
                      id - 1),
             -1;
    if (w[i].parent == 0 && id != 1)
      return snprintf(err, err_len, "panels[%d].parent: only the first panel is wired to the controller", i), -1;
    if (w[i].parent > 0) {
      if (used[w[i].parent][w[i].edge])
        return snprintf(err, err_len, "panels[%d]: slot %d of panel %d is already used", i, w[i].edge, w[i].parent), -1;
      used[w[i].parent][w[i].edge] = 1;
      if (used[id][w[i].in_edge]) return snprintf(err, err_len, "panels[%d].inEdge: slot already used", i), -1;
    }
    used[id][w[i].in_edge] = 1;
  }
  return n;
}

/* ---- A small JSON reader: enough for the topology document. ---------------------------------- */
typedef struct {
  const char *p, *end;
  int bad;
} reader_t;

static void ws(reader_t *r) {
  while (r->p < r->end && isspace((unsigned char)*r->p)) r->p++;
}

static int peek(reader_t *r) {
  ws(r);
  return r->p < r->end ? *r->p : -1;
}

static int eat(reader_t *r, char c) {
  if (peek(r) == c) {
    r->p++;
    return 1;
  }
  return 0;
}

/* A string into out (escapes kept simple: \" \\ and others copied as the escaped char). */
static int string(reader_t *r, char *out, int cap) {
  if (!eat(r, '"')) return r->bad = 1, 0;
  int n = 0;
  while (r->p < r->end && *r->p != '"') {
    char c = *r->p++;
    if (c == '\\' && r->p < r->end) c = *r->p++;
    if (n < cap - 1) out[n++] = c;
  }
  if (r->p >= r->end) return r->bad = 1, 0;
  r->p++;
  out[n] = 0;
  return 1;
}

static void skip_value(reader_t *r, int depth);

/* A number: returns 1 and sets *v when it is an integer that fits. Non-integers give -1 (invalid). */
static double number(reader_t *r) {
  ws(r);
  char *e;
  double d = strtod(r->p, &e);
  if (e == r->p) r->bad = 1;
  r->p = e;
  return d;
}

static void skip_value(reader_t *r, int depth) {
  char tmp[64];
  int c = peek(r);
  if (depth > 64) {
    r->bad = 1;
    return;
  }
  if (c == '{') {
    r->p++;
    if (eat(r, '}')) return;
    do {
      string(r, tmp, sizeof tmp);
      if (!eat(r, ':')) r->bad = 1;
      skip_value(r, depth + 1);
    } while (!r->bad && eat(r, ','));
    if (!eat(r, '}')) r->bad = 1;
  } else if (c == '[') {
    r->p++;
    if (eat(r, ']')) return;
    do skip_value(r, depth + 1);
    while (!r->bad && eat(r, ','));
    if (!eat(r, ']')) r->bad = 1;
  } else if (c == '"') {
    string(r, tmp, sizeof tmp);
  } else if (c == 't' || c == 'f' || c == 'n') {
    const char *words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
      size_t l = strlen(words[i]);
      if ((size_t)(r->end - r->p) >= l && strncmp(r->p, words[i], l) == 0) {
        r->p += l;
        return;
      }
    }
    r->bad = 1;
  } else {
    number(r);
  }
}

/* A member value that should be an integer: non-integers become -1 so validation rejects them. */
static int int_member(reader_t *r) {
  int c = peek(r);
  if (c == '-' || (c >= '0' && c <= '9')) {
    double d = number(r);
    if (d != (double)(long)d || d > 1e6 || d < -1e6) return -1;
    return (int)d;
  }
  skip_value(r, 1);
  return -1;
}

static int panel(reader_t *r, wire_t *w) {
  *w = (wire_t){-1, 0, 0};
  if (!eat(r, '{')) return r->bad = 1, 0;
  if (eat(r, '}')) return 1;
  do {
    char key[32];
    if (!string(r, key, sizeof key) || !eat(r, ':')) return r->bad = 1, 0;
    if (strcmp(key, "parent") == 0) w->parent = int_member(r);
    else if (strcmp(key, "edge") == 0) w->edge = int_member(r);
    else if (strcmp(key, "inEdge") == 0) w->in_edge = int_member(r);
    else skip_value(r, 1);
  } while (!r->bad && eat(r, ','));
  if (!eat(r, '}')) r->bad = 1;
  return !r->bad;
}

int topology_load(const char *file, wire_t *out, char *err, int err_len) {
  FILE *f = fopen(file, "rb");
  if (!f) return snprintf(err, err_len, "%s: cannot read the file", file), -1;
  static char text[1 << 20];
  size_t len = fread(text, 1, sizeof text, f);
  fclose(f);
  reader_t r = {text, text + len, 0};
  int n = -1;
  if (eat(&r, '{') && !eat(&r, '}')) {
    do {
      char key[32];
      if (!string(&r, key, sizeof key) || !eat(&r, ':')) break;
      if (strcmp(key, "panels") == 0 && peek(&r) == '[') {
        r.p++;
        n = 0;
        if (!eat(&r, ']')) {
          do {
            if (n >= MAX_EMULATED_PANELS + 1)
              return snprintf(err, err_len, "at most %d panels", MAX_EMULATED_PANELS), -1;
            if (!panel(&r, &out[n])) break;
            n++;
          } while (eat(&r, ','));
          if (!eat(&r, ']')) r.bad = 1;
        }
      } else {
        skip_value(&r, 1);
      }
    } while (!r.bad && eat(&r, ','));
    if (!r.bad && !eat(&r, '}')) r.bad = 1;
  } else {
    r.bad = 1;
  }
  if (r.bad) return snprintf(err, err_len, "%s: invalid JSON", file), -1;
  if (n < 0) return snprintf(err, err_len, "%s: expected {\"panels\": [...]}", file), -1;
  return validate(out, n, err, err_len);
}
