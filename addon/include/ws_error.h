/* Error codes of the C core. Functions return 0 or one of these negative
 * codes; ws_strerror and ws_errname turn a code into words. The list is
 * written once (WS_ERRNO_MAP) and generates the enum, the names, the
 * messages and the binding's export. */
#ifndef WS_ERROR_H
#define WS_ERROR_H

/* X(name, value, message): negative errno values where one fits. */
#define WS_ERRNO_MAP(X)                                                                  \
  X(EINVAL, -22, "invalid argument or content")                                          \
  X(ENOMEM, -12, "out of memory")                                                        \
  X(EIO, -5, "cannot read the file")                                                     \
  X(EFORMAT, -1001, "not a wasm-soak log of a known version")                            \
  X(EENGINE, -1002, "the engine failed; its own error is pending in the engine")         \
  X(EALLOC, -1003,                                                                       \
    "the module's allocator returned no usable block for a buffer argument")             \
  X(ENOHEAP, -1004, "no allocator heap was recognised in the memory")                    \
  X(ELIBRARY, -1005, "the native library could not be loaded")                           \
  X(ESYMBOL, -1006, "the native library does not export a function it is asked for")

enum {
#define WS_ERRNO_ENUM(name, value, message) WS_##name = (value),
  WS_ERRNO_MAP(WS_ERRNO_ENUM)
#undef WS_ERRNO_ENUM
};

/* Returns a static, human-readable description of code; never NULL. */
const char *ws_strerror(int code);

/* Returns the static symbolic name of code ("WS_EINVAL"), "WS_OK" for 0, or
 * "WS_EUNKNOWN"; never NULL. */
const char *ws_errname(int code);

#endif
