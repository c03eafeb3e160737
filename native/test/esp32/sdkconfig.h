/*
 * sdkconfig.h for the C unit tests that compile a file of the ESP32 port on Linux (native/test/esp32/): the
 * variant comes from the test's build (TEST_VARIANT_LARGE), as idf.py would set it from sdkconfig.defaults.
 */
#ifndef TESSERA_TEST_SDKCONFIG_H
#define TESSERA_TEST_SDKCONFIG_H
#if TEST_VARIANT_LARGE
#define CONFIG_TESSERA_VARIANT_LARGE 1
#define CONFIG_SPIRAM 1
#else
#define CONFIG_TESSERA_VARIANT_SMALL 1
#endif
#endif
