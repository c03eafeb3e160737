/* app_main.c: the ESP-IDF entry point; the app is the `tessera` component (components/tessera). */
#include "tessera_esp32.h"

void app_main(void) { tessera_esp32_main(); }
