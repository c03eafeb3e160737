/*
 * tessera_wifi_policy.h: when a device's Wi-Fi station tries again and when the setup network (an
 * open access point with a captive portal) opens and closes (native/src/wifi_policy.c). Pure decisions:
 * the port feeds it what the radio reports and carries out the action it answers, from one task.
 *
 * - With no stored network, or after `retries` failed attempts in a row, the setup network opens.
 * - Before that, a failed attempt is retried after 0.5 s, 1 s, 2 s, 4 s ... (short: the setup network
 *   should not be long in coming when the network is really gone).
 * - While the setup network is up, every station attempt scans other channels and knocks phones off
 *   the access point, so retries back off from 15 s, doubling up to 2 minutes, and wait 5 minutes
 *   while a phone is connected to the setup network (it is probably being set up).
 * - A disconnection the device caused itself (the new network from the setup form) is neither counted
 *   nor retried: the new network is joined at once.
 * - Once the station has an address, the setup network closes 5 s later (the setup answer still
 *   reaches the phone).
 */
#ifndef TESSERA_WIFI_POLICY_H
#define TESSERA_WIFI_POLICY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TESSERA_WIFI_FIRST_RETRY_MS 500u
#define TESSERA_WIFI_RETRY_MAX_MS 4000u
#define TESSERA_WIFI_PORTAL_RETRY_MS 15000u
#define TESSERA_WIFI_PORTAL_RETRY_MAX_MS 120000u
#define TESSERA_WIFI_PORTAL_BUSY_RETRY_MS 300000u
#define TESSERA_WIFI_PORTAL_CLOSE_MS 5000u

typedef struct {
  int retries;         /* failed attempts in a row before the setup network opens */
  int have_network;    /* station credentials are stored */
  int failures;        /* failed attempts in a row */
  int portal;          /* the setup network is up */
  int ap_clients;      /* stations on the setup network */
  int leaving;         /* the device dropped the station itself: its "left" disconnection is not a failure */
  uint32_t backoff_ms; /* the next retry delay while the setup network is up */
} tessera_wifi_t;

/* What the port does next. connect_in_ms: -1 no attempt (cancel a scheduled one), 0 connect now,
 * otherwise connect after that many ms (replacing a scheduled attempt). */
typedef struct {
  int32_t connect_in_ms;
  int open_portal;            /* bring the setup network up (and its DNS responder) */
  int32_t close_portal_in_ms; /* -1, or close the setup network after that many ms */
} tessera_wifi_action_t;

/* The radio started; have_network: credentials are stored. */
tessera_wifi_action_t tessera_wifi_start(tessera_wifi_t *w, int have_network, int retries);
/* The station lost or failed to get its connection. we_left: the disconnection reason says the station
 * itself left (ESP-IDF's WIFI_REASON_ASSOC_LEAVE). */
tessera_wifi_action_t tessera_wifi_disconnected(tessera_wifi_t *w, int we_left);
/* The station has an address. */
tessera_wifi_action_t tessera_wifi_connected(tessera_wifi_t *w);
/* New credentials were stored: the port has disconnected the station and joins the new network. */
tessera_wifi_action_t tessera_wifi_configured(tessera_wifi_t *w);
/* The setup network closed (the port did it after close_portal_in_ms). */
void tessera_wifi_portal_closed(tessera_wifi_t *w);
/* A station joined (+1) or left (-1) the setup network. */
void tessera_wifi_ap_client(tessera_wifi_t *w, int delta);

/* Captive portal: 1 when a request should be redirected to the setup page. Only while the setup network
 * is up, only for clients on it (on_setup_network: the request came in on the access point's address)
 * and only for other hosts than the portal's own (host: the Host header without its port, may be ""). */
int tessera_portal_redirect(int portal, int on_setup_network, const char *host, const char *portal_ip);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_WIFI_POLICY_H */
