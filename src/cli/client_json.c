/* A protobuf-c message as cJSON (see client_json.h). */
#include "client_json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* RFC 4648 base64 with padding, as the proto3 JSON mapping writes bytes. */
static cJSON *json_bytes(const ProtobufCBinaryData *b)
{
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *s = malloc(4 * ((b->len + 2) / 3) + 1);
    if (!s)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < b->len; i += 3) {
        uint32_t v = (uint32_t)b->data[i] << 16;
        if (i + 1 < b->len)
            v |= (uint32_t)b->data[i + 1] << 8;
        if (i + 2 < b->len)
            v |= b->data[i + 2];
        s[o++] = A[v >> 18 & 63];
        s[o++] = A[v >> 12 & 63];
        s[o++] = i + 1 < b->len ? A[v >> 6 & 63] : '=';
        s[o++] = i + 2 < b->len ? A[v & 63] : '=';
    }
    s[o] = '\0';
    cJSON *j = cJSON_CreateString(s);
    free(s);
    return j;
}

static size_t elem_size(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64: return 8;
    case PROTOBUF_C_TYPE_DOUBLE: return sizeof(double);
    case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_STRING: return sizeof(char *);
    case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_MESSAGE: return sizeof(ProtobufCMessage *);
    default: /* the 32-bit integers, float, enum */ return 4;
    }
}

/* One value of field f at p. */
static cJSON *json_value(const ProtobufCFieldDescriptor *f, const void *p)
{
    char num[32];
    switch (f->type) {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32: return cJSON_CreateNumber(*(const int32_t *)p);
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32: return cJSON_CreateNumber(*(const uint32_t *)p);
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
        snprintf(num, sizeof num, "%" PRId64, *(const int64_t *)p);
        return cJSON_CreateRaw(num);
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
        snprintf(num, sizeof num, "%" PRIu64, *(const uint64_t *)p);
        return cJSON_CreateRaw(num);
    case PROTOBUF_C_TYPE_FLOAT: return cJSON_CreateNumber(*(const float *)p);
    case PROTOBUF_C_TYPE_DOUBLE: return cJSON_CreateNumber(*(const double *)p);
    case PROTOBUF_C_TYPE_BOOL: return cJSON_CreateBool(*(const protobuf_c_boolean *)p);
    case PROTOBUF_C_TYPE_ENUM: {
        int v = *(const int *)p;
        const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(f->descriptor, v);
        return ev ? cJSON_CreateString(ev->name) : cJSON_CreateNumber(v);
    }
    case PROTOBUF_C_TYPE_STRING: {
        const char *s = *(char *const *)p;
        return cJSON_CreateString(s ? s : "");
    }
    case PROTOBUF_C_TYPE_BYTES: return json_bytes(p);
    case PROTOBUF_C_TYPE_MESSAGE: {
        const ProtobufCMessage *m = *(ProtobufCMessage *const *)p;
        return m ? client_json_message(m) : cJSON_CreateNull();
    }
    }
    return NULL;
}

cJSON *client_json_message(const ProtobufCMessage *m)
{
    const ProtobufCMessageDescriptor *d = m->descriptor;
    const char *base = (const char *)m;
    cJSON *o = cJSON_CreateObject();
    for (unsigned i = 0; o && i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        const void *member = base + f->offset;
        const void *quant = base + f->quantifier_offset;
        cJSON *v;
        if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) && *(const uint32_t *)quant != f->id)
            continue; /* another member of its oneof is set */
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)quant;
            const char *arr = *(char *const *)member;
            v = cJSON_CreateArray();
            for (size_t k = 0; v && k < n; k++) {
                cJSON *e = json_value(f, arr + k * elem_size(f->type));
                if (!e || !cJSON_AddItemToArray(v, e)) {
                    cJSON_Delete(e);
                    cJSON_Delete(v);
                    v = NULL;
                }
            }
        } else {
            v = json_value(f, member);
        }
        if (!v || !cJSON_AddItemToObject(o, f->name, v)) {
            cJSON_Delete(v);
            cJSON_Delete(o);
            o = NULL;
        }
    }
    return o;
}
