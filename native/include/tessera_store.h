/*
 * tessera_store.h: the key-value store on a POSIX file API (native/src/store.c), shared by the ports
 * whose files go through open/pread/rename/opendir: the POSIX port (a directory on disk) and the ESP32
 * port (LittleFS mounted through ESP-IDF's VFS). It implements port_store_* of tessera_port.h.
 */
#ifndef TESSERA_STORE_H
#define TESSERA_STORE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Keeps the store's files under dir (created with its parents). 0, or -1 when it cannot be created. */
int tessera_store_open(const char *dir);

/* Test hook (--store-limit): the store's files may take at most `bytes` in all; a write or append that
 * would pass it fails with TESSERA_STORE_FULL, as on a full partition. 0: no limit. */
void tessera_store_limit(uint64_t bytes);

/* The chip id: six lowercase hex digits, kept in the store as "chipid" (made from port_random() the first
 * time). 0, or -1 when it cannot be written. */
int tessera_chip_id(char out[7]);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_STORE_H */
