/*
 * serial.c: the controller's serial port on the POSIX host (--serial PATH, a tty or a pty): 57600 baud
 * 8N1, raw. A thread reads what arrives and hands it to the core under the lock (the firmware frame,
 * core_serial_receive); the core's answers go out through port_serial_write. Nothing here interprets
 * the bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "posix.h"
#include "tessera_driver.h"
#include "tessera_port.h"

static int fd = -1;

static void *reader(void *arg) {
  (void)arg;
  uint8_t buf[1024];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      /* a pty whose far end is closed reads EIO until it is opened again: wait and retry */
      usleep(100000);
      continue;
    }
    posix_lock();
    tessera_serial_receive(buf, (uint32_t)n);
    posix_unlock();
    posix_kick();
  }
  return NULL;
}

int serial_open(const char *path) {
  fd = open(path, O_RDWR | O_NOCTTY);
  if (fd < 0) return -1;
  struct termios t;
  if (tcgetattr(fd, &t) == 0) {
    cfmakeraw(&t);
    cfsetispeed(&t, B57600);
    cfsetospeed(&t, B57600);
    t.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CSIZE);
    t.c_cflag |= CS8 | CLOCAL | CREAD;
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(fd, TCSANOW, &t) != 0) tessera_logf(1, "serial: %s: cannot set 57600 8N1", path);
  }
  pthread_t th;
  if (pthread_create(&th, NULL, reader, NULL) != 0) return -1;
  pthread_detach(th);
  return 0;
}

void port_serial_write(const uint8_t *data, uint32_t len) {
  while (fd >= 0 && len > 0) {
    ssize_t n = write(fd, data, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return; /* the far end is gone: the answer is lost, as on a wire */
    data += n;
    len -= (uint32_t)n;
  }
}

int32_t port_serial_read(uint8_t *buf, uint32_t cap) {
  (void)buf;
  (void)cap;
  return 0; /* the reader thread delivers instead */
}
