#include "ws.h"

/* Returns a static description of code; never NULL. */
const char *ws_strerror(int code) {
  switch (code) {
  case 0:
    return "success";
  case WS_EINVAL:
    return "invalid argument or content";
  case WS_ENOMEM:
    return "out of memory";
  case WS_EIO:
    return "cannot read the file";
  case WS_EFORMAT:
    return "not a wasm-soak log of a known version";
  default:
    return "unknown error";
  }
}

/* Returns the static symbolic name of code; never NULL. */
const char *ws_errname(int code) {
  switch (code) {
  case 0:
    return "WS_OK";
  case WS_EINVAL:
    return "WS_EINVAL";
  case WS_ENOMEM:
    return "WS_ENOMEM";
  case WS_EIO:
    return "WS_EIO";
  case WS_EFORMAT:
    return "WS_EFORMAT";
  default:
    return "WS_EUNKNOWN";
  }
}
