#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The running state of one SHA-256 computation (FIPS 180-4).
typedef struct csha256_context {
    /// The eight chaining words, a..h.
    uint32_t state[8];
    /// Bytes hashed so far (the message length before padding).
    uint64_t length;
    /// Bytes waiting for a full 64-byte block.
    uint8_t pending[64];
    /// How many bytes of `pending` are in use.
    uint32_t pending_count;
    /// Nonzero to use the portable compression function even where the hardware one exists.
    uint32_t portable;
} csha256_context;

/// Starts a new computation (hardware compression when available).
void csha256_init(csha256_context *context);

/// Starts a new computation that always uses the portable compression function (tests, benchmarks).
void csha256_init_portable(csha256_context *context);

/// Hashes `count` more bytes of the message.
void csha256_update(csha256_context *context, const void *bytes, size_t count);

/// Pads the message and writes the 32-byte digest; the context must be initialised again before reuse.
void csha256_final(csha256_context *context, uint8_t digest[32]);

/// 1 when the x86 SHA extensions are used for the compression function, 0 for the portable code.
int csha256_uses_hardware(void);

#ifdef __cplusplus
}
#endif

#endif
