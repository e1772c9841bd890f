/* A cuzk.v1 message as JSON, field by field from its protobuf-c descriptor:
 * the proto's field names, every field present (also the proto3 defaults),
 * enums by their proto names, 64-bit integers as exact JSON numbers (not
 * through a double), bytes as base64, an absent sub-message as null. Used
 * by `cuzk status --json` so the JSON follows the proto without a second
 * list of its fields. */
#ifndef CUZK_CLIENT_JSON_H
#define CUZK_CLIENT_JSON_H

#include <cjson/cJSON.h>
#include <protobuf-c/protobuf-c.h>

/* Returns the object (the caller frees it with cJSON_Delete), or NULL when
 * out of memory. */
cJSON *client_json_message(const ProtobufCMessage *m);

#endif
