// The panel firmware's whole host contract, panel → host. An emulated panel's host is a wire
// model: it carries bytes from one port to whatever is plugged into the other end.

// Transmit a packet on edge port 0-2.
@external("tessera_panel", "panel_tx") export declare function panel_tx(port: u32, ptr: usize, len: u32): void;
// 1 when something is plugged into edge port 0-2 (link sense), else 0.
@external("tessera_panel", "panel_linked") export declare function panel_linked(port: u32): u32;
// The panel clock in milliseconds (wraps at 2^32): animation start, triggers and frames read it.
@external("tessera_panel", "panel_clock_ms") export declare function panel_clock_ms(): u32;
// The panel's flash, as its bootloader sees it (the host emulates the part): op PANEL_FLASH_* below,
// `offset` and `len` in bytes of the image (header included), `ptr` the data. Results below 0 fail.
@external("tessera_panel", "panel_flash") export declare function panel_flash(op: u32, offset: u32, ptr: usize, len: u32): i32;
// ERASE: ready the staging area for an image of `len` bytes (-1: no bootloader, the panel stays silent).
export const PANEL_FLASH_ERASE: u32 = 0;
// WRITE: `len` bytes from ptr at offset. READ: up to `len` bytes at offset into ptr; returns the count.
export const PANEL_FLASH_WRITE: u32 = 1;
export const PANEL_FLASH_READ: u32 = 2;
// COMMIT: the staged image (header and CRC-32 checked) becomes the one the panel boots.
export const PANEL_FLASH_COMMIT: u32 = 3;
// RESTART: after this call returns, the panel restarts, running its committed image.
export const PANEL_FLASH_RESTART: u32 = 4;
