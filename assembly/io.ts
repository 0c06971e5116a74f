// The fixed I/O window between the host and the core.
//
// The host never holds views into wasm memory across calls (memory.grow detaches them). It asks
// for an input window of at least N bytes, copies its bytes in, calls an operation with
// (ptr, len), and copies any variable-length result out of the output window with slice().
// Windows grow geometrically and are reused, so a long-lived worker does not leak.

let inPtr: usize = 0;
let inCap: usize = 0;
let outPtr: usize = 0;
let outCap: usize = 0;
let outLen: usize = 0;

/** Returns the address of an input window of at least `len` bytes (valid until the next call). */
export function ioInput(len: usize): usize {
  if (len > inCap) {
    const cap = grow(inCap, len);
    if (inPtr != 0) heap.free(inPtr);
    inPtr = heap.alloc(cap);
    inCap = cap;
  }
  return inPtr;
}

/** Address of the last operation's variable-length output. */
export function ioOutput(): usize {
  return outPtr;
}

/** Length in bytes of the last operation's variable-length output. */
export function ioOutputLen(): usize {
  return outLen;
}

/** Ensures the output window holds `len` bytes, sets the output length, and returns its address. */
export function outReserve(len: usize): usize {
  if (len > outCap) {
    const cap = grow(outCap, len);
    if (outPtr != 0) heap.free(outPtr);
    outPtr = heap.alloc(cap);
    outCap = cap;
  }
  outLen = len;
  return outPtr;
}

/** Shrinks the recorded output length after an operation wrote less than it reserved. */
export function outSetLen(len: usize): void {
  outLen = len;
}

/** Releases both windows (the host calls this before dropping a long-lived instance's caches). */
export function ioRelease(): void {
  if (inPtr != 0) heap.free(inPtr);
  if (outPtr != 0) heap.free(outPtr);
  inPtr = 0;
  inCap = 0;
  outPtr = 0;
  outCap = 0;
  outLen = 0;
}

// @ts-ignore: decorator
@inline
function grow(current: usize, needed: usize): usize {
  let cap: usize = current < 65536 ? 65536 : current;
  while (cap < needed) {
    // Doubling past 2 GiB would wrap to 0 and loop for ever: take exactly what is needed (the
    // allocator then refuses it, a trap the host reports; the host refuses such sizes first).
    if (cap >= (<usize>1 << 31)) return needed;
    cap <<= 1;
  }
  return cap;
}
