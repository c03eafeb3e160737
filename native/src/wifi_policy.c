/* wifi_policy.c: station retries and the setup network's life (tessera_wifi_policy.h). */
#include "tessera_wifi_policy.h"

#include <string.h>

static tessera_wifi_action_t nothing(void) { return (tessera_wifi_action_t){-1, 0, -1}; }

tessera_wifi_action_t tessera_wifi_start(tessera_wifi_t *w, int have_network, int retries) {
  memset(w, 0, sizeof *w);
  w->retries = retries < 1 ? 1 : retries;
  w->have_network = have_network != 0;
  w->backoff_ms = TESSERA_WIFI_PORTAL_RETRY_MS;
  tessera_wifi_action_t a = nothing();
  if (w->have_network) a.connect_in_ms = 0;
  else a.open_portal = w->portal = 1; /* nothing to connect to: setup first */
  return a;
}

tessera_wifi_action_t tessera_wifi_disconnected(tessera_wifi_t *w, int we_left) {
  tessera_wifi_action_t a = nothing();
  if (w->leaving && we_left) { /* ours: the new network is being joined already */
    w->leaving = 0;
    return a;
  }
  if (!w->have_network) return a;
  w->failures++;
  if (!w->portal && w->failures >= w->retries) {
    a.open_portal = w->portal = 1;
    w->backoff_ms = TESSERA_WIFI_PORTAL_RETRY_MS;
  }
  if (w->portal) {
    a.connect_in_ms = (int32_t)(w->ap_clients > 0 ? TESSERA_WIFI_PORTAL_BUSY_RETRY_MS : w->backoff_ms);
    w->backoff_ms =
        w->backoff_ms * 2 > TESSERA_WIFI_PORTAL_RETRY_MAX_MS ? TESSERA_WIFI_PORTAL_RETRY_MAX_MS : w->backoff_ms * 2;
  } else {
    uint32_t delay = TESSERA_WIFI_FIRST_RETRY_MS;
    for (int i = 1; i < w->failures && delay < TESSERA_WIFI_RETRY_MAX_MS; i++) delay *= 2;
    a.connect_in_ms = (int32_t)(delay > TESSERA_WIFI_RETRY_MAX_MS ? TESSERA_WIFI_RETRY_MAX_MS : delay);
  }
  return a;
}

tessera_wifi_action_t tessera_wifi_connected(tessera_wifi_t *w) {
  tessera_wifi_action_t a = nothing();
  w->failures = 0;
  w->backoff_ms = TESSERA_WIFI_PORTAL_RETRY_MS;
  if (w->portal) a.close_portal_in_ms = (int32_t)TESSERA_WIFI_PORTAL_CLOSE_MS;
  return a;
}

tessera_wifi_action_t tessera_wifi_configured(tessera_wifi_t *w) {
  tessera_wifi_action_t a = nothing();
  w->have_network = 1;
  w->failures = 0;
  w->backoff_ms = TESSERA_WIFI_PORTAL_RETRY_MS;
  w->leaving = 1; /* the port disconnected the station: that "left" is not a failure */
  a.connect_in_ms = 0;
  return a;
}

void tessera_wifi_portal_closed(tessera_wifi_t *w) {
  w->portal = 0;
  w->ap_clients = 0;
}

void tessera_wifi_ap_client(tessera_wifi_t *w, int delta) {
  w->ap_clients += delta;
  if (w->ap_clients < 0) w->ap_clients = 0;
}

int tessera_portal_redirect(int portal, int on_setup_network, const char *host, const char *portal_ip) {
  return portal && on_setup_network && strcmp(host, portal_ip) != 0;
}
