// CRC-16/IBM as the WebSocket protocol uses it: reflected, polynomial 0xA001, initial value 0xFFFF
// (the parameters known as CRC-16/MODBUS). Table-free so it costs no RAM; frames are tiny.

export function crc16Update(crc: u32, ptr: usize, len: u32): u32 {
  for (let i: u32 = 0; i < len; i++) {
    crc ^= <u32>load<u8>(ptr + i);
    for (let b = 0; b < 8; b++) {
      crc = crc & 1 ? (crc >> 1) ^ 0xa001 : crc >> 1;
    }
  }
  return crc & 0xffff;
}

export function crc16(ptr: usize, len: u32): u32 {
  return crc16Update(0xffff, ptr, len);
}
