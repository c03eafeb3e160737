/*
 * store.c: the key-value store as files in a data directory, on the POSIX file API (a directory on
 * disk for the POSIX port, LittleFS through ESP-IDF's VFS on the ESP32). Writes are atomic: a temp file
 * is written and fsynced, renamed over the old one, and the directory fsynced, so a crash or a full
 * disk leaves the previous value intact. Keys arrive checked (native/src/abi.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tessera_host.h"
#include "tessera_port.h"
#include "tessera_store.h"

static char root[PATH_MAX];
static uint64_t limit; /* tessera_store_limit: 0 none */

void tessera_store_limit(uint64_t bytes) { limit = bytes; }

/* Bytes of the store's files under dir (one level of folders; names starting with '.' are not the store's). */
static uint64_t used_bytes(const char *dir, int depth) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  uint64_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char full[PATH_MAX];
    if (snprintf(full, sizeof full, "%s/%s", dir, e->d_name) >= (int)sizeof full) continue;
    struct stat st;
    if (stat(full, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      if (depth == 0) n += used_bytes(full, 1);
    } else {
      n += (uint64_t)st.st_size;
    }
  }
  closedir(d);
  return n;
}

/* 1 when `more` bytes would pass the limit (a full partition). */
static int over_limit(uint32_t more) { return limit > 0 && used_bytes(root, 0) + more > limit; }

static int ends_tmp(const char *s);

/* Temporary files a write left behind when the process was killed (`<key>.tmp`, never a value): removed
 * when the store opens, in the data directory and its folders (one level, as keys have). */
static void remove_temporaries(const char *dir, int depth) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char full[PATH_MAX];
    int n = snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
    if (n < 0 || (size_t)n >= sizeof full) continue;
    struct stat st;
    if (stat(full, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      if (depth == 0) remove_temporaries(full, 1);
    } else if (ends_tmp(e->d_name) && unlink(full) == 0) {
      tessera_logf(TESSERA_LOG_INFO, "store: removed %s, left by an interrupted write", full);
    }
  }
  closedir(d);
}

int tessera_store_open(const char *dir) {
  if (strlen(dir) + 300 >= sizeof root) return -1;
  snprintf(root, sizeof root, "%s", dir);
  /* mkdir -p */
  char tmp[PATH_MAX];
  snprintf(tmp, sizeof tmp, "%s", dir);
  for (char *p = tmp + 1; *p; p++) {
    if (*p == '/') {
      *p = 0;
      mkdir(tmp, 0755);
      *p = '/';
    }
  }
  if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
  remove_temporaries(root, 0);
  return 0;
}

/* 1 when snprintf's result n fitted in cap bytes. */
static int fits(int n, size_t cap) { return n >= 0 && (size_t)n < cap; }

/* The file of a key: 0, or -1 when the path would not fit (never with a checked key and an opened root). */
static int path_of(const char *key, char *out, size_t cap) {
  return fits(snprintf(out, cap, "%s/%s", root, key), cap) ? 0 : -1;
}

static int sync_dir(const char *file) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", file);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  int fd = open(dir, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return -1;
  int r = fsync(fd);
  close(fd);
  return r;
}

int32_t port_store_read(const char *key, uint32_t offset, uint8_t *buf, uint32_t cap) {
  char file[PATH_MAX];
  if (path_of(key, file, sizeof file) != 0) return TESSERA_STORE_IO_ERROR;
  int fd = open(file, O_RDONLY);
  if (fd < 0) return errno == ENOENT || errno == ENOTDIR ? TESSERA_STORE_MISSING : TESSERA_STORE_IO_ERROR;
  uint32_t got = 0;
  while (got < cap) {
    ssize_t n = pread(fd, buf + got, cap - got, (off_t)offset + got);
    if (n < 0) {
      if (errno == EINTR) continue;
      close(fd);
      return TESSERA_STORE_IO_ERROR;
    }
    if (n == 0) break;
    got += (uint32_t)n;
  }
  close(fd);
  return (int32_t)got;
}

static int32_t fail(int err) { return err == ENOSPC || err == EDQUOT ? TESSERA_STORE_FULL : TESSERA_STORE_IO_ERROR; }

int32_t port_store_write(const char *key, const uint8_t *data, uint32_t len) {
  char file[PATH_MAX], tmp[PATH_MAX + 8];
  if (path_of(key, file, sizeof file) != 0) return TESSERA_STORE_IO_ERROR;
  const char *slash = strchr(key, '/');
  if (slash) { /* the key's folder */
    char dir[PATH_MAX];
    if (!fits(snprintf(dir, sizeof dir, "%s/%.*s", root, (int)(slash - key), key), sizeof dir))
      return TESSERA_STORE_IO_ERROR;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return TESSERA_STORE_IO_ERROR;
  }
  snprintf(tmp, sizeof tmp, "%s.tmp", file);
  if (over_limit(len)) return TESSERA_STORE_FULL;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return fail(errno);
  uint32_t done = 0;
  while (done < len) {
    ssize_t n = write(fd, data + done, len - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      close(fd);
      unlink(tmp);
      return fail(err);
    }
    done += (uint32_t)n;
  }
  if (fsync(fd) != 0 || close(fd) != 0) {
    int err = errno;
    unlink(tmp);
    return fail(err);
  }
  if (rename(tmp, file) != 0) {
    int err = errno;
    unlink(tmp);
    return fail(err);
  }
  sync_dir(file);
  return TESSERA_STORE_OK;
}

/* The key's folder, made when missing. */
static int make_folder(const char *key) {
  const char *slash = strchr(key, '/');
  if (!slash) return 0;
  char dir[PATH_MAX];
  if (!fits(snprintf(dir, sizeof dir, "%s/%.*s", root, (int)(slash - key), key), sizeof dir)) return -1;
  return mkdir(dir, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int32_t port_store_append(const char *key, const uint8_t *data, uint32_t len) {
  char file[PATH_MAX];
  if (path_of(key, file, sizeof file) != 0 || make_folder(key) != 0) return TESSERA_STORE_IO_ERROR;
  if (over_limit(len)) return TESSERA_STORE_FULL;
  int fd = open(file, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return fail(errno);
  uint32_t done = 0;
  while (done < len) {
    ssize_t n = write(fd, data + done, len - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      close(fd);
      return fail(err);
    }
    done += (uint32_t)n;
  }
  if (close(fd) != 0) return fail(errno);
  return TESSERA_STORE_OK;
}

int32_t port_store_rename(const char *from, const char *to) {
  char src[PATH_MAX], dst[PATH_MAX];
  if (path_of(from, src, sizeof src) != 0 || path_of(to, dst, sizeof dst) != 0 || make_folder(to) != 0)
    return TESSERA_STORE_IO_ERROR;
  int fd = open(src, O_RDWR);
  if (fd < 0) return errno == ENOENT ? TESSERA_STORE_MISSING : TESSERA_STORE_IO_ERROR;
  int synced = fsync(fd) == 0;
  int err = errno;
  close(fd);
  if (!synced) return fail(err);
  if (rename(src, dst) != 0) return fail(errno);
  sync_dir(dst);
  return TESSERA_STORE_OK;
}

int32_t port_store_delete(const char *key) {
  char file[PATH_MAX];
  if (path_of(key, file, sizeof file) != 0) return TESSERA_STORE_IO_ERROR;
  struct stat st;
  if (stat(file, &st) == 0 && S_ISDIR(st.st_mode)) return TESSERA_STORE_IO_ERROR;
  if (unlink(file) != 0) return errno == ENOENT || errno == ENOTDIR ? TESSERA_STORE_MISSING : TESSERA_STORE_IO_ERROR;
  sync_dir(file);
  return TESSERA_STORE_OK;
}

/* A key as store keys go (the checks of abi.c, on a file name found on disk). */
static int valid_segment(const char *s) {
  if (!*s || *s == '.') return 0;
  for (; *s; s++) {
    char c = *s;
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.')) return 0;
  }
  return 1;
}

static int ends_tmp(const char *s) {
  size_t n = strlen(s);
  return n >= 4 && strcmp(s + n - 4, ".tmp") == 0;
}

typedef struct {
  char **keys;
  size_t n, cap;
} keylist_t;

static void add_key(keylist_t *l, const char *key) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 32;
    char **k = realloc(l->keys, cap * sizeof *k);
    if (!k) return;
    l->keys = k;
    l->cap = cap;
  }
  char *copy = strdup(key);
  if (copy) l->keys[l->n++] = copy;
}

static void walk(keylist_t *l, const char *dir, const char *rel, const char *prefix) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!valid_segment(e->d_name) || ends_tmp(e->d_name)) continue;
    char key[600], full[PATH_MAX];
    if (!fits(snprintf(key, sizeof key, "%s%s", rel, e->d_name), sizeof key) || strlen(key) > 255) continue;
    if (!fits(snprintf(full, sizeof full, "%s/%s", dir, e->d_name), sizeof full)) continue;
    struct stat st;
    if (stat(full, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      if (*rel) continue; /* one level of folders */
      char sub[600];
      if (!fits(snprintf(sub, sizeof sub, "%s/", key), sizeof sub)) continue;
      /* only descend when the prefix can match inside */
      size_t pl = strlen(prefix), sl = strlen(sub);
      if (strncmp(sub, prefix, pl < sl ? pl : sl) == 0) walk(l, full, sub, prefix);
    } else if (S_ISREG(st.st_mode) && strncmp(key, prefix, strlen(prefix)) == 0) {
      add_key(l, key);
    }
  }
  closedir(d);
}

static int by_bytes(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int32_t port_store_list(const char *prefix, uint8_t *buf, uint32_t cap) {
  keylist_t l = {0};
  walk(&l, root, "", prefix);
  if (l.n > 1) qsort(l.keys, l.n, sizeof *l.keys, by_bytes);
  uint32_t total = 0;
  for (size_t i = 0; i < l.n; i++) {
    if (i > 0) {
      if (total < cap) buf[total] = '\n';
      total++;
    }
    size_t kl = strlen(l.keys[i]);
    for (size_t j = 0; j < kl; j++, total++)
      if (total < cap) buf[total] = (uint8_t)l.keys[i][j];
    free(l.keys[i]);
  }
  free(l.keys);
  return (int32_t)total;
}

int tessera_chip_id(char out[7]) {
  char file[PATH_MAX];
  FILE *f = path_of("chipid", file, sizeof file) == 0 ? fopen(file, "r") : NULL;
  if (f) {
    char line[16] = {0};
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    if (ok) {
      int hex = 1;
      for (int i = 0; i < 6; i++) {
        char c = line[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) hex = 0;
      }
      if (hex && (line[6] == '\n' || line[6] == 0 || line[6] == '\r')) {
        memcpy(out, line, 6);
        out[6] = 0;
        return 0;
      }
    }
  }
  uint32_t r = port_random() & 0xffffff;
  snprintf(out, 7, "%06" PRIx32, r);
  char text[8];
  snprintf(text, sizeof text, "%s\n", out);
  return port_store_write("chipid", (const uint8_t *)text, 7) == 0 ? 0 : -1;
}
