/*
 * serial.c: the 57600-baud serial port of the ESP32 port, a plain byte pipe on its own UART. It is
 * reserved for the firmware channel (the frame protocol on top of it is a later issue): the UART
 * driver's receive ring buffer is the receive queue, port_serial_read drains it without waiting and
 * port_serial_write queues bytes for sending. On chips with two UARTs (ESP32-C6) the serial port is
 * UART0, so the console moves to the USB Serial/JTAG port (sdkconfig.defaults.esp32c6).
 */
#include "driver/uart.h"
#include "sdkconfig.h"
#include "tessera_esp32.h"
#include "tessera_port.h"

#define SERIAL_UART CONFIG_TESSERA_SERIAL_UART
#define RX_QUEUE 1024
#define TX_QUEUE 1024

static int started;

int esp32_serial_start(void) {
  uart_config_t cfg = {
      .baud_rate = 57600,
      .data_bits = UART_DATA_8_BITS,
      .parity = UART_PARITY_DISABLE,
      .stop_bits = UART_STOP_BITS_1,
      .flow_ctrl = UART_HW_FLOWCTRL_DISABLE,
      .source_clk = UART_SCLK_DEFAULT,
  };
  if (uart_driver_install(SERIAL_UART, RX_QUEUE, TX_QUEUE, 0, NULL, 0) != ESP_OK) return -1;
  if (uart_param_config(SERIAL_UART, &cfg) != ESP_OK) return -1;
  if (uart_set_pin(SERIAL_UART, CONFIG_TESSERA_SERIAL_TX_GPIO, CONFIG_TESSERA_SERIAL_RX_GPIO, UART_PIN_NO_CHANGE,
                   UART_PIN_NO_CHANGE) != ESP_OK)
    return -1;
  started = 1;
  return 0;
}

void port_serial_write(const uint8_t *data, uint32_t len) {
  if (started) uart_write_bytes(SERIAL_UART, data, len);
}

int32_t port_serial_read(uint8_t *buf, uint32_t cap) {
  if (!started) return 0;
  int n = uart_read_bytes(SERIAL_UART, buf, cap, 0);
  return n > 0 ? n : 0;
}
