/* sources: wifi_policy.c
 * test_wifi_policy.c: station retries with backoff, the setup network's life, the device's own
 * disconnection not counted, and the captive portal's redirect rule (native/src/wifi_policy.c). */
#include "check.h"
#include "tessera_wifi_policy.h"

static void test_no_network_opens_the_setup_network(void) {
  tessera_wifi_t w;
  tessera_wifi_action_t a = tessera_wifi_start(&w, 0, 5);
  CHECK_EQ(a.open_portal, 1);
  CHECK_EQ(a.connect_in_ms, -1);
  a = tessera_wifi_disconnected(&w, 0); /* nothing stored: nothing to retry */
  CHECK_EQ(a.connect_in_ms, -1);
}

static void test_retries_back_off_then_the_setup_network_opens(void) {
  tessera_wifi_t w;
  tessera_wifi_action_t a = tessera_wifi_start(&w, 1, 5);
  CHECK_EQ(a.connect_in_ms, 0);
  CHECK_EQ(a.open_portal, 0);
  const int32_t before[4] = {500, 1000, 2000, 4000};
  for (int i = 0; i < 4; i++) {
    a = tessera_wifi_disconnected(&w, 0);
    CHECK_EQ(a.connect_in_ms, before[i]);
    CHECK_EQ(a.open_portal, 0);
  }
  a = tessera_wifi_disconnected(&w, 0); /* the fifth failure in a row */
  CHECK_EQ(a.open_portal, 1);
  CHECK_EQ(a.connect_in_ms, 15000); /* while the setup network is up: seconds apart, not at once */
  const int32_t during[6] = {30000, 60000, 120000, 120000, 120000, 120000};
  for (int i = 0; i < 6; i++) {
    a = tessera_wifi_disconnected(&w, 0);
    CHECK_EQ(a.open_portal, 0); /* already open */
    CHECK_EQ(a.connect_in_ms, during[i]);
  }
}

static void test_a_phone_on_the_setup_network_is_left_alone(void) {
  tessera_wifi_t w;
  tessera_wifi_start(&w, 1, 1);
  tessera_wifi_action_t a = tessera_wifi_disconnected(&w, 0);
  CHECK_EQ(a.open_portal, 1);
  tessera_wifi_ap_client(&w, +1);
  a = tessera_wifi_disconnected(&w, 0);
  CHECK_EQ(a.connect_in_ms, 300000);
  tessera_wifi_ap_client(&w, -1);
  tessera_wifi_ap_client(&w, -1); /* more leaves than joins (a missed event) stays at 0 */
  CHECK_EQ(w.ap_clients, 0);
  a = tessera_wifi_disconnected(&w, 0);
  CHECK(a.connect_in_ms < 300000);
}

static void test_connected_closes_the_setup_network_later(void) {
  tessera_wifi_t w;
  tessera_wifi_start(&w, 1, 2);
  tessera_wifi_disconnected(&w, 0);
  tessera_wifi_action_t a = tessera_wifi_disconnected(&w, 0);
  CHECK_EQ(a.open_portal, 1);
  a = tessera_wifi_connected(&w);
  CHECK_EQ(a.close_portal_in_ms, 5000);
  CHECK_EQ(a.connect_in_ms, -1);
  tessera_wifi_portal_closed(&w);
  a = tessera_wifi_connected(&w);
  CHECK_EQ(a.close_portal_in_ms, -1); /* nothing to close */
  /* after a connection the count starts again: a drop is retried quickly */
  a = tessera_wifi_disconnected(&w, 0);
  CHECK_EQ(a.connect_in_ms, 500);
  CHECK_EQ(a.open_portal, 0);
}

static void test_the_devices_own_disconnection_is_not_counted(void) {
  tessera_wifi_t w;
  tessera_wifi_start(&w, 0, 2); /* first setup: the setup network is up */
  tessera_wifi_action_t a = tessera_wifi_configured(&w);
  CHECK_EQ(a.connect_in_ms, 0);
  a = tessera_wifi_disconnected(&w, 1); /* the "left" of the port's esp_wifi_disconnect */
  CHECK_EQ(a.connect_in_ms, -1);        /* no second connect on top of the one under way */
  CHECK_EQ(w.failures, 0);
  a = tessera_wifi_disconnected(&w, 0); /* the new network really fails: counted */
  CHECK_EQ(w.failures, 1);
  CHECK(a.connect_in_ms > 0);
  a = tessera_wifi_disconnected(&w, 1); /* a later "left" is a failure like any other */
  CHECK_EQ(w.failures, 2);
  /* configuring while connected: the old connection's end is ours */
  tessera_wifi_start(&w, 1, 5);
  tessera_wifi_connected(&w);
  tessera_wifi_configured(&w);
  tessera_wifi_disconnected(&w, 1);
  CHECK_EQ(w.failures, 0);
  CHECK_EQ(w.leaving, 0);
}

static void test_captive_portal_redirect(void) {
  const char *ip = "192.168.4.1";
  CHECK_EQ(tessera_portal_redirect(1, 1, "connectivitycheck.gstatic.com", ip), 1);
  CHECK_EQ(tessera_portal_redirect(1, 1, "", ip), 1);
  CHECK_EQ(tessera_portal_redirect(1, 1, "192.168.4.1", ip), 0);                   /* the portal itself */
  CHECK_EQ(tessera_portal_redirect(1, 0, "tessera-abc123.local", ip), 0);          /* a client on the home network */
  CHECK_EQ(tessera_portal_redirect(0, 1, "connectivitycheck.gstatic.com", ip), 0); /* no setup network */
}

int main(void) {
  RUN(test_no_network_opens_the_setup_network);
  RUN(test_retries_back_off_then_the_setup_network_opens);
  RUN(test_a_phone_on_the_setup_network_is_left_alone);
  RUN(test_connected_closes_the_setup_network_later);
  RUN(test_the_devices_own_disconnection_is_not_counted);
  RUN(test_captive_portal_redirect);
  return check_summary("test_wifi_policy");
}
