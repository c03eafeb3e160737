/*
 * esp_heap_caps.h for the C unit tests (native/test/esp32/): ESP-IDF's declarations as the ESP32 check
 * compiles against them; the test that includes a port file defines the functions (stand-ins that record
 * the capabilities asked).
 */
#include "../../port/esp32/esp-idf-declarations/esp_heap_caps.h"
