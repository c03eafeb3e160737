/*
 * web.c: finding an asset of the web app (tessera_web.h) by URL, and If-None-Match, for every port.
 */
#include "tessera_web.h"

#include <string.h>

const tessera_web_asset_t *tessera_web_find(const char *url) {
  if (!url) return NULL;
  size_t n = strcspn(url, "?#");
  for (uint32_t i = 0; i < tessera_web_asset_count; i++) {
    const tessera_web_asset_t *a = &tessera_web_assets[i];
    if (strlen(a->path) == n && memcmp(a->path, url, n) == 0) return a;
  }
  return NULL;
}

int tessera_web_not_modified(const tessera_web_asset_t *asset, const char *if_none_match) {
  if (!asset || !if_none_match) return 0;
  size_t etag_len = strlen(asset->etag);
  const char *p = if_none_match;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == ',') p++;
    if (!*p) break;
    if (p[0] == 'W' && p[1] == '/') p += 2; /* weak comparison: the opaque part only */
    size_t len = strcspn(p, ", \t");
    if ((len == 1 && *p == '*') || (len == etag_len && memcmp(p, asset->etag, len) == 0)) return 1;
    p += len;
  }
  return 0;
}
