/*
 * bus.c: the panel bus of the ESP32 port on a UART. Packets are cut from the byte stream by their
 * header (byte 2 is the total length, 5-80 bytes); the core checks the CRC. Received packets are
 * delivered by the main loop (esp32_bus_pump), never from inside a core call.
 * Compiled for rv32imac against ESP-IDF v5.3.4's declarations by scripts/esp32-check.mjs; not built with the
 * ESP toolchain here.
 */
#include <string.h>

#include "driver/uart.h"
#include "sdkconfig.h"
#include "tessera_driver.h"
#include "tessera_esp32.h"
#include "tessera_port.h"

#define BUS_UART UART_NUM_1
#define HEADER 5
#define MAX_PACKET 80

static uint8_t rx[MAX_PACKET * 4];
static size_t rx_len;

int esp32_bus_start(void) {
  uart_config_t cfg = {
      .baud_rate = CONFIG_TESSERA_BUS_BAUD,
      .data_bits = UART_DATA_8_BITS,
      .parity = UART_PARITY_DISABLE,
      .stop_bits = UART_STOP_BITS_1,
      .flow_ctrl = UART_HW_FLOWCTRL_DISABLE,
      .source_clk = UART_SCLK_DEFAULT,
  };
  if (uart_driver_install(BUS_UART, 1024, 1024, 0, NULL, 0) != ESP_OK) return -1;
  if (uart_param_config(BUS_UART, &cfg) != ESP_OK) return -1;
  if (uart_set_pin(BUS_UART, CONFIG_TESSERA_BUS_TX_GPIO, CONFIG_TESSERA_BUS_RX_GPIO, UART_PIN_NO_CHANGE,
                   UART_PIN_NO_CHANGE) != ESP_OK)
    return -1;
  return 0;
}

void port_bus_send(const uint8_t *data, uint32_t len) { uart_write_bytes(BUS_UART, data, len); }

int esp32_bus_pump(void) {
  int delivered = 0;
  int n = uart_read_bytes(BUS_UART, rx + rx_len, sizeof rx - rx_len, 0);
  if (n > 0) rx_len += (size_t)n;
  while (rx_len >= HEADER) {
    uint8_t total = rx[2];
    if (total < HEADER || total > MAX_PACKET) { /* not a header: resynchronise one byte on */
      memmove(rx, rx + 1, --rx_len);
      continue;
    }
    if (rx_len < total) break;
    tessera_bus_receive(rx, total);
    memmove(rx, rx + total, rx_len - total);
    rx_len -= total;
    delivered++;
  }
  return delivered;
}
