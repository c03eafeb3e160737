/*
 * tessera_web.h: the web app every host serves at / (web/, built by `npm run build`). The assets are
 * gzip-compressed and compiled in: scripts/build-web.mjs writes build/web/web_assets.c, which
 * defines the table below, and native/src/web.c finds an asset by path and answers If-None-Match.
 * Each port sends an asset with its Content-Type, `Content-Encoding: gzip`, its Cache-Control and
 * its ETag (or 304 without a body), for GET and HEAD only; every other request goes to the core.
 * The bytes are const: on the ESP32 they stay in the app image's flash (no RAM, no copy).
 */
#ifndef TESSERA_WEB_H
#define TESSERA_WEB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *path;          /* "/", "/app.<hash>.js", ...: matched against the URL without its query */
  const char *content_type;  /* "text/html; charset=utf-8", "application/wasm", ... */
  const char *cache_control; /* "no-cache" for "/", a year and immutable for the hashed names */
  const char *etag;          /* a quoted strong entity tag of the gzip bytes */
  const uint8_t *gzip;       /* the asset, gzip-compressed */
  uint32_t gzip_len;
} tessera_web_asset_t;

extern const tessera_web_asset_t tessera_web_assets[];
extern const uint32_t tessera_web_asset_count;

/* The asset at `url` (a request target; anything from '?' on is ignored), or NULL. */
const tessera_web_asset_t *tessera_web_find(const char *url);

/* 1 when an If-None-Match header value (may be NULL) names the asset's ETag (or is "*"): answer 304. */
int tessera_web_not_modified(const tessera_web_asset_t *asset, const char *if_none_match);

#ifdef __cplusplus
}
#endif

#endif
