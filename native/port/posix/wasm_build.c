/*
 * wasm_build.c: wasm2c and the C compiler run at run time, as the build runs them (CMake gives their
 * paths): a module's translation, its glue and wasm-rt become one shared object, every symbol hidden
 * but the glue's entry, so each object keeps its own translation and wasm-rt.
 */
#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wasm_build.h"

extern char **environ;

#ifndef TESSERA_WASM2C
#define TESSERA_WASM2C "wasm2c"
#endif
#ifndef TESSERA_CC
#define TESSERA_CC "cc"
#endif

/* Runs argv (stdout to the log's stream, stderr kept: a compiler's reasons), 0 when it succeeds. */
static int run(char *const argv[]) {
  posix_spawn_file_actions_t actions;
  pid_t pid;
  int status;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, 2, 1);
  int r = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (r != 0) return -1;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

const void *wasm_so_entry(const char *so, const char *symbol, const char **failed) {
  void *handle = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    *failed = dlerror();
    unlink(so);
    return NULL;
  }
  typedef const void *(*entry_t)(void);
  entry_t entry = (entry_t)dlsym(handle, symbol);
  const void *made = entry ? entry() : NULL;
  if (!made) *failed = entry ? "its shared object's entry gave nothing" : "its shared object has no entry";
  return made;
}

int posix_write_file(const char *file, const uint8_t *bytes, uint32_t len) {
  FILE *f = fopen(file, "wb");
  int ok = f && fwrite(bytes, 1, len, f) == len;
  if (f && fclose(f) != 0) ok = 0;
  return ok ? 0 : -1;
}

const char *wasm_build_so(const char *dir, const uint8_t *wasm, uint32_t len, const char *name, const char *glue,
                          const char *const *flags, const char *so) {
  enum { FILES = 4, MAX_FLAGS = 16 };
  static const char *const ext[FILES] = {"wasm", "c", "h", "so"};
  char scratch[4200], file[FILES][4400], inc[4300];
  const char *failed = NULL;
  snprintf(scratch, sizeof scratch, "%s/build.XXXXXX", dir);
  if (!mkdtemp(scratch)) return "cannot make a scratch folder";
  for (int i = 0; i < FILES; i++) snprintf(file[i], sizeof file[i], "%s/%s.%s", scratch, name, ext[i]);
  snprintf(inc, sizeof inc, "-I%s", scratch);
  char *translate[] = {TESSERA_WASM2C, file[0], "-n", (char *)name, "-o", file[1], NULL};
  char *compile[16 + MAX_FLAGS] = {TESSERA_CC,
                                   "-O1",
                                   "-shared",
                                   "-fPIC",
                                   "-fvisibility=hidden",
                                   "-w",
                                   "-DWASM_RT_MEMCHECK_SIGNAL_HANDLER=0",
                                   inc,
                                   "-I" TESSERA_WASM_RT_DIR};
  int n = 9;
  for (int i = 0; flags && flags[i] && i < MAX_FLAGS; i++) compile[n++] = (char *)flags[i];
  compile[n++] = (char *)glue;
  compile[n++] = file[1];
  compile[n++] = TESSERA_WASM_RT_DIR "/wasm-rt-impl.c";
  compile[n++] = "-o";
  compile[n++] = file[3];
  compile[n++] = "-lm";
  compile[n] = NULL;
  if (posix_write_file(file[0], wasm, len) != 0) failed = "cannot write its module";
  else if (run(translate) != 0) failed = "wasm2c refused its module";
  else if (run(compile) != 0) failed = "the C compiler refused its translation";
  else if (rename(file[3], so) != 0) failed = "cannot store the shared object";
  for (int i = 0; i < FILES; i++) unlink(file[i]);
  rmdir(scratch);
  return failed;
}
