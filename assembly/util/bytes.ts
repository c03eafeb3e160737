// Little-endian field access. Every multi-byte field on the WebSocket and the bus is little-endian,
// and so is WebAssembly, so plain loads and stores already have the right byte order.

export function putU16(ptr: usize, v: u32): void {
  store<u16>(ptr, <u16>v);
}

export function getU16(ptr: usize): u32 {
  return <u32>load<u16>(ptr);
}

export function putU32(ptr: usize, v: u32): void {
  store<u32>(ptr, v);
}

export function getU32(ptr: usize): u32 {
  return load<u32>(ptr);
}
