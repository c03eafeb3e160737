/* Debian's libmdnsd-dev headers include "config.h" (the library's build configuration) without
 * shipping it; nothing in them needs its contents, so this empty one stands in. */
