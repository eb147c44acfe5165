/* Names and messages of the C core's error codes, generated from
 * WS_ERRNO_MAP (ws_error.h). */
#include "ws_error.h"

const char *ws_strerror(int code) {
  switch (code) {
  case 0:
    return "success";
#define WS_ERRNO_MESSAGE(name, value, message)                                           \
  case WS_##name:                                                                        \
    return message;
    WS_ERRNO_MAP(WS_ERRNO_MESSAGE)
#undef WS_ERRNO_MESSAGE
  default:
    return "unknown error";
  }
}

const char *ws_errname(int code) {
  switch (code) {
  case 0:
    return "WS_OK";
#define WS_ERRNO_NAME(name, value, message)                                              \
  case WS_##name:                                                                        \
    return "WS_" #name;
    WS_ERRNO_MAP(WS_ERRNO_NAME)
#undef WS_ERRNO_NAME
  default:
    return "WS_EUNKNOWN";
  }
}
