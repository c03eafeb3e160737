// The panel firmware's whole host contract, panel → host. An emulated panel's host is a wire
// model: it carries bytes from one port to whatever is plugged into the other end.

// Transmit a packet on edge port 0-2.
@external("tessera_panel", "panel_tx") export declare function panel_tx(port: u32, ptr: usize, len: u32): void;
// 1 when something is plugged into edge port 0-2 (link sense), else 0.
@external("tessera_panel", "panel_linked") export declare function panel_linked(port: u32): u32;
// The panel clock in milliseconds (wraps at 2^32): animation start, triggers and frames read it.
@external("tessera_panel", "panel_clock_ms") export declare function panel_clock_ms(): u32;
