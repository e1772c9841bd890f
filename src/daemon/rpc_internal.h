/* Shared by the gRPC server and client (rpc_server.c, rpc_client.c):
 * byte buffer conversions, PEM files, channel arguments, the method table.
 * Internal to libcuzk. Thread safety: every function is reentrant. */
#ifndef CUZK_DAEMON_RPC_INTERNAL_H
#define CUZK_DAEMON_RPC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <grpc/byte_buffer.h>
#include <grpc/grpc.h>

#include "cuzk/rpc.h"

/* Method m's protobuf-c descriptor (input and output message types). */
const ProtobufCMethodDescriptor *rpc_method_desc(int m);
/* The index of the method whose path is path (length len), or -1. */
int rpc_method_find(const char *path, size_t len);

/* The bytes of bb in one malloc'd buffer (*out NULL for 0 bytes).
 * Returns CUZK_OK or CUZK_ERR_NOMEM. */
cuzk_status rpc_buffer_flatten(uint8_t **out, size_t *len, grpc_byte_buffer *bb);
/* A byte buffer that takes over p (malloc'd, len bytes; freed by gRPC when
 * the buffer is done with). p may be NULL for len 0. */
grpc_byte_buffer *rpc_buffer_take(uint8_t *p, size_t len);

/* msg packed into a malloc'd buffer (NULL for 0 bytes).
 * Returns CUZK_OK or CUZK_ERR_NOMEM. */
cuzk_status rpc_pack(uint8_t **out, size_t *len, const ProtobufCMessage *msg);

/* A whole text file, NUL-terminated, malloc'd (for PEM).
 * Returns CUZK_OK, CUZK_ERR_IO, CUZK_ERR_NOMEM. */
cuzk_status rpc_read_pem(char **out, const char *what, const char *path, cuzk_error_t *err);

/* The message-size arguments both sides set (and SO_REUSEPORT off, which
 * only servers read). args must hold 3 entries; ch gets them. */
void rpc_channel_args(grpc_channel_args *ch, grpc_arg args[3], size_t max_message_bytes);

/* CLOCK_MONOTONIC in ns. */
uint64_t rpc_now_ns(void);

/* copies s (at most n bytes) into a buffer of cap bytes, NUL-terminated. */
void rpc_copy_text(char *dst, size_t cap, const char *s, size_t n);

#endif
