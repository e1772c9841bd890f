/* Page-locked host memory without long driver stalls (host_pin.cu).
 *
 * The driver serialises its page-locking calls: one cudaHostRegister of a
 * 44 GiB streamed key takes ~2.4 s on an H100 host (18 GB/s), and every
 * cudaHostAlloc / cudaMallocHost of any other thread waits that long
 * (measured: a 64 MiB cudaHostAlloc took 1.8 s beside a 32 GiB
 * registration, 82 ms beside the same registered in 1 GiB pieces). A
 * WinningPoSt's first proof makes such small pinned allocations, so large
 * ranges are pinned here in pieces at CUDA_HOST_PIN_PIECE-aligned
 * addresses, and the driver serves other threads between pieces.
 *
 * A copy may not span two registrations, so every host-to-device copy
 * from memory that may be pinned here goes through cuda_copy_h2d, which
 * splits at the same aligned addresses (harmless for pageable memory). */
#ifndef CUZK_CUDA_HOST_PIN_CUH
#define CUZK_CUDA_HOST_PIN_CUH

#include <cuda_runtime.h>
#include <stddef.h>

/* 256 MiB: ~14 ms of pinning at 18 GB/s, 176 pieces for a 44 GiB key. */
#define CUDA_HOST_PIN_PIECE ((size_t)256 << 20)

/* Host memory pinned in place, shared: backends that stream the same host
 * key (workers of one device, or other devices) share one registration
 * (portable, read-only for the device), and the last one out unregisters
 * it, so nobody unpins memory another is still copying from. The shared
 * table's lock is not held while the driver pins: a second range is pinned
 * beside the first, and a caller asking for a range being pinned waits for
 * that one. acquire: 1 when [p, p + bytes) is registered for the caller
 * now (newly, or a reference on the registration of exactly that range),
 * 0 when the driver refused (the caller then copies); release takes what
 * acquire gave. */
int cuda_host_pin_acquire(void *p, size_t bytes);
void cuda_host_pin_release(void *p);

/* Page-locked memory of its own (the engine's witness buffers): mapped,
 * then pinned in pieces; NULL when either is refused. Free with
 * cuda_host_pieces_free and the same size. */
void *cuda_host_pieces_alloc(size_t bytes);
void cuda_host_pieces_free(void *p, size_t bytes);

/* cudaMemcpyAsync host to device, in parts that never cross a piece
 * boundary. */
cudaError_t cuda_copy_h2d(void *dst, const void *src, size_t bytes, cudaStream_t s);

#endif
