/* Small Node-API helpers every area of the binding uses, in the manner of
 * sodium-native's macros.h: reading a binding's arguments (a type-tagged
 * handle among them), setting a named number or string on an object,
 * reading an optional property, reading a typed array in place or making a
 * new one, creating a handle that owns native data, and turning a WS_E*
 * result into an exception. Those that return a napi_status throw nothing:
 * the caller checks it with NAPI_CHECK or NAPI_CALL (binding.h) or turns it
 * into its own error; those that return a pointer or an int say when they
 * throw. They run on the JS thread that owns env. */
#ifndef WS_NAPI_HELPERS_H
#define WS_NAPI_HELPERS_H

#include <stddef.h>

#include <node_api.h>

/* Sets obj[name] = value (a JS number). Returns the status of the first
 * Node-API call that failed, else napi_ok. */
napi_status ws_napi_set_number(napi_env env, napi_value obj, const char *name,
                               double value);

/* One number of an object: its property's name and its value. */
typedef struct {
  const char *name;
  double value;
} ws_napi_number;

/* Sets obj[numbers[i].name] = numbers[i].value for i in [0, n). Returns the
 * status of the first Node-API call that failed, else napi_ok. */
napi_status ws_napi_set_numbers(napi_env env, napi_value obj,
                                const ws_napi_number *numbers, size_t n);

/* ws_napi_set_numbers of the array numbers, all its elements. */
#define WS_NAPI_SET_NUMBERS(env, obj, numbers)                                           \
  ws_napi_set_numbers((env), (obj), (numbers), sizeof(numbers) / sizeof *(numbers))

/* Sets obj[name] = value (a JS string from the UTF-8 text value, or null
 * when value is NULL). Returns the status of the first Node-API call that
 * failed, else napi_ok. */
napi_status ws_napi_set_string(napi_env env, napi_value obj, const char *name,
                               const char *value);

/* Sets obj[name] = value (a JS boolean: true when value is not 0). Returns
 * the status of the first Node-API call that failed, else napi_ok. */
napi_status ws_napi_set_bool(napi_env env, napi_value obj, const char *name, int value);

/* Builds one element of an array: element i of items (the caller's type)
 * into *out. Returns napi_ok, or the failed call's status. */
typedef napi_status (*ws_napi_item)(napi_env env, const void *items, size_t i,
                                    napi_value *out);

/* Sets obj[name] to an array of n elements, element i built by item(env,
 * items, i, ...). Returns the status of the first call that failed, else
 * napi_ok. */
napi_status ws_napi_set_array(napi_env env, napi_value obj, const char *name, size_t n,
                              ws_napi_item item, const void *items);

/* Reads v as a typed array of type want, without copying: stores its data
 * pointer in *data and its length in elements in *length, and returns
 * napi_ok. Returns napi_invalid_arg, leaving *data and *length as they were
 * and throwing nothing, when v is not a typed array or is one of another
 * type; the status of a failed Node-API call otherwise. */
napi_status ws_napi_typed_array(napi_env env, napi_value v, napi_typedarray_type want,
                                void **data, size_t *length);

/* Reads the call's first n arguments into argv[0..n), undefined for those
 * not passed. Returns 1, or 0 after throwing (WS_EINVAL with usage as the
 * message) when fewer than required were passed or Node-API failed. */
int ws_napi_args(napi_env env, napi_callback_info info, size_t n, size_t required,
                 napi_value *argv, const char *usage);

/* The first lines of a binding: declares napi_value argv[n] and reads the
 * call's first n arguments into it (ws_napi_args: at least required, else
 * WS_EINVAL with usage); returns NULL from the binding after throwing.
 * Needs env and info in scope. */
#define WS_NAPI_ARGV(n, required, usage)                                                 \
  napi_value argv[n];                                                                    \
  if (!ws_napi_args(env, info, (n), (required), argv, (usage)))                          \
  return NULL

/* Most arguments a binding on a handle reads after the handle. */
#define WS_NAPI_MAX_ARGS 7

/* Reads the arguments of a call on a handle: the first a handle carrying
 * tag (its value in *handle when handle is not NULL), the n after it
 * (n <= WS_NAPI_MAX_ARGS) into argv[0..n). Returns the native data the
 * handle wraps, or NULL after throwing WS_EINVAL with usage as the message
 * when an argument is missing or the first is no such handle (another
 * value, another tag, or closed), or n is too large. */
void *ws_napi_handle_args(napi_env env, napi_callback_info info, const napi_type_tag *tag,
                          napi_value *handle, size_t n, napi_value *argv,
                          const char *usage);

/* The first lines of a binding called on a handle: declares napi_value
 * argv[n + 1] and type *self, the native data of the handle that is the
 * call's first argument (carrying tag), and reads the n arguments after it
 * into argv[0..n); returns NULL from the binding after throwing WS_EINVAL
 * with usage as the message when one is missing or the first is no such
 * handle (ws_napi_handle_args). Needs env and info in scope. */
#define WS_NAPI_HANDLE_ARGS(type, self, tag, n, usage)                                   \
  napi_value argv[(n) + 1];                                                              \
  (void)argv;                                                                            \
  type *self = ws_napi_handle_args(env, info, (tag), NULL, (n), argv, (usage));          \
  if (self == NULL)                                                                      \
  return NULL

/* Returns a new handle that owns data: an object tagged with tag and
 * wrapping data, which finalize frees when the object is collected (unless
 * ws_napi_take_wrapped took it first). On failure, frees data with
 * finalize(env, data, NULL) and returns NULL after throwing. */
napi_value ws_napi_new_handle(napi_env env, void *data, napi_finalize finalize,
                              const napi_type_tag *tag);

/* Defines the napi_finalize name, which frees a handle's data with
 * free_fn(data) (for ws_napi_new_handle). */
#define WS_NAPI_FINALIZER(name, free_fn)                                                 \
  static void name(napi_env env, void *data, void *hint) {                               \
    (void)env;                                                                           \
    (void)hint;                                                                          \
    free_fn(data);                                                                       \
  }

/* Sets obj[name] to a new typed array of type holding a copy of the n
 * elements at src. Returns the status of the first Node-API call that
 * failed, else napi_ok. */
napi_status ws_napi_set_typed_copy(napi_env env, napi_value obj, const char *name,
                                   napi_typedarray_type type, const void *src, size_t n);

/* Reads obj[key] into *out, or NULL when it is undefined or null. Returns
 * the status of the first Node-API call that failed, else napi_ok. */
napi_status ws_napi_get_optional(napi_env env, napi_value obj, const char *key,
                                 napi_value *out);

/* Reads v as a typed array of type want in place, as ws_napi_typed_array.
 * Returns 1, or 0 after throwing WS_EINVAL with usage as the message when v
 * is not one (or Node-API failed). */
int ws_napi_typed_arg(napi_env env, napi_value v, napi_typedarray_type want, void **data,
                      size_t *length, const char *usage);

/* Creates in *out a typed array of type and n elements over an ArrayBuffer
 * of its own, and its bytes' address in *data (for the caller to fill).
 * Returns the status of the first Node-API call that failed, else
 * napi_ok. */
napi_status ws_napi_new_typed_array(napi_env env, napi_typedarray_type type, size_t n,
                                    void **data, napi_value *out);

/* Returns 1 when rc, a core call's result, is not negative; else throws
 * the WS_E* error rc with its own message and returns 0. */
int ws_napi_rc_ok(napi_env env, int rc);

/* Returns the native data wrapped in v (napi_wrap) when v carries tag
 * (napi_type_tag_object) and is still wrapped, else NULL. Throws nothing. */
void *ws_napi_unwrap_tagged(napi_env env, napi_value v, const napi_type_tag *tag);

/* The body of a close(handle) binding: reads the one argument of info,
 * removes its wrap (so its finalizer never runs) and returns the native
 * data for the caller to free. Returns NULL after throwing WS_EINVAL with
 * usage as the message when the argument is missing, carries another tag
 * or no tag, or was closed already. */
void *ws_napi_take_wrapped(napi_env env, napi_callback_info info,
                           const napi_type_tag *tag, const char *usage);

#endif
