// The core's receive buffer (core_rx_buffer): the host writes a WebSocket frame, a bus packet, an MQTT
// message or serial bytes here right before the export that reads them, and nothing in between. So
// an export that receives nothing in it may use it as scratch: the firmware upload's read window (in
// an HTTP dispatch) and the flash's page (past any BOOT_ACK, whose fields are read first).
export const RX_CAP: u32 = 1024;
export const rx = memory.data(RX_CAP);
