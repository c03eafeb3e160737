// A fixed array in static memory with array syntax: `const a = changetype<Fixed<u32>>(memory.data(4 * N))`
// reads and writes `a[i]` as plain loads and stores at a constant address. A module-level
// `new StaticArray<T>(N)` instead costs a WAMR global for its pointer (about 52 B of device heap), a
// start-up block with its header, and a bounds check on every access. No bounds check here: callers
// index within the size they gave.
@final
@unmanaged
export class Fixed<T> {
  @inline
  @operator("[]")
  get(i: i32): T {
    return load<T>(changetype<usize>(this) + ((<usize>i) << alignof<T>()));
  }

  @inline
  @operator("[]=")
  set(i: i32, v: T): void {
    store<T>(changetype<usize>(this) + ((<usize>i) << alignof<T>()), v);
  }
}
