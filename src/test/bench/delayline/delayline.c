/*
 * delayline: a constant delay per netfilter queue, for the benchmark testbed (issue 17).
 *
 * The kernel of the benchmark machine has no sch_netem, so the testbed adds round-trip time in
 * userspace: in the client's network namespace, iptables queues every packet from mirror I
 * (raw PREROUTING, -j NFQUEUE --queue-num I) and this program accepts it again DELAY ms after it
 * arrived. Packets of one queue leave in the order they came (a link does not reorder), so
 * the release time of a packet is max(arrival + delay, release time of the packet before it),
 * and one batch verdict (NFQNL_MSG_VERDICT_BATCH: every packet id up to N) releases all the
 * due packets of a queue at once. Only the packet metadata is copied (NFQNL_COPY_META), GSO
 * packets stay whole (NFQA_CFG_F_GSO), messages are read 64 at a time (recvmmsg), and one
 * thread waits in ppoll for the next release time, the netlink socket or a signal.
 *
 * Waking up on time: in a virtual machine a CPU that sleeps for a millisecond or more is halted,
 * and waking it again took 4 ms at the 90th percentile and 30 ms at the 99th on the benchmark
 * machine (a 1 ms nanosleep loop at real-time priority), while sleeps under the guest's halt-poll
 * window (200 us) came back within 0.03 ms at the 90th percentile. So while packets are queued
 * the program never sleeps longer than --slice (default 100 us), even with nothing queued: the
 * first packet after a pause is then picked up as quickly (--idle-slice off blocks instead, at
 * the price of late handshakes: curl's connect time to a 100 ms mirror spread to 227 ms, against
 * 100.3-102.3 ms with it on). Sleeping in slices costs about 14% of one CPU.
 *
 * Usage: delayline [--maxlen N] [--slice US] [--idle-slice on|off] [--ready FILE] CONTROL
 *   CONTROL   lines "QUEUE MS" (MS may have decimals; '#' starts a comment): the queues to
 *             bind and their delays. SIGHUP re-reads it (delays only: a queue that was not
 *             bound at the start is reported and ignored).
 *   --maxlen  kernel queue length per queue, in packets (default 131072); a full queue drops.
 *   --slice   longest sleep, in microseconds (default 100; 0: sleep until the next due time).
 *   --idle-slice  on (default): sleep in slices also when nothing is queued; off: block then.
 *   --ready   file created once the queues are bound and the signals are handled.
 * SIGUSR1 prints per-queue statistics on stderr; SIGTERM or SIGINT releases every queued
 * packet, prints the statistics and exits 0.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <linux/netfilter.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libnetfilter_queue/libnetfilter_queue.h>

#define MAX_QUEUES 64
#define RECV_BATCH 64
#define RECV_BUF 512 /* a COPY_META packet message is about 100-200 bytes */
#define DRAIN_LIMIT 256 /* messages read before the release times are looked at again */

struct pkt {
  uint32_t id;
  int64_t due; /* CLOCK_MONOTONIC ns */
};

struct line {
  uint16_t num;
  struct nfq_q_handle *qh;
  int64_t delay_ns;
  struct pkt *ring; /* FIFO, capacity a power of two */
  uint32_t cap, head, n;
  int64_t last_due;
  uint64_t packets, batches, max_depth;
  int64_t max_late_ns; /* worst release after the due time */
  uint64_t late_hist[6]; /* batches by lateness of their first packet: see LATE_BOUNDS */
  double late_sum_ns;    /* for the mean lateness per batch */
};

/* upper bounds (ns) of the lateness classes counted per queue: <0.1, <0.5, <1, <2, <10 ms, more */
static const int64_t LATE_BOUNDS[5] = {100000, 500000, 1000000, 2000000, 10000000};

static struct line lines[MAX_QUEUES];
static int nlines;
static const char *control;
static int64_t now_ns; /* arrival time stamped on the messages of one recvmmsg */

static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("delayline: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static int64_t mono_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static struct line *find(unsigned num) {
  for (int i = 0; i < nlines; i++)
    if (lines[i].num == num) return &lines[i];
  return NULL;
}

/* Reads CONTROL. At the start (bind = 1) every queue it names is created; later only the
 * delays change. A malformed file changes nothing and is reported with its line number. */
static int read_control(int bind) {
  FILE *f = fopen(control, "r");
  if (!f) {
    fprintf(stderr, "delayline: cannot read %s: %s\n", control, strerror(errno));
    return -1;
  }
  unsigned nums[MAX_QUEUES];
  double ms[MAX_QUEUES];
  int n = 0, lineno = 0, bad = 0;
  char buf[256];
  while (fgets(buf, sizeof buf, f)) {
    lineno++;
    char *hash = strchr(buf, '#');
    if (hash) *hash = 0;
    char extra[2];
    unsigned q;
    double d;
    int k = sscanf(buf, "%u %lf %1s", &q, &d, extra);
    if (k == EOF || (k <= 0 && strspn(buf, " \t\r\n") == strlen(buf))) continue;
    if (k != 2 || q > 65535 || !(d >= 0 && d <= 60000)) {
      fprintf(stderr, "delayline: %s:%d: expected 'QUEUE MS' (queue 0-65535, 0-60000 ms): %s",
              control, lineno, buf);
      bad = 1;
      break;
    }
    if (n == MAX_QUEUES) {
      fprintf(stderr, "delayline: %s:%d: more than %d queues\n", control, lineno, MAX_QUEUES);
      bad = 1;
      break;
    }
    nums[n] = q;
    ms[n++] = d;
  }
  fclose(f);
  if (bad) return -1;
  if (bind && n == 0) {
    fprintf(stderr, "delayline: %s names no queue\n", control);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    struct line *l = find(nums[i]);
    if (!l && bind) {
      l = &lines[nlines++];
      l->num = (uint16_t)nums[i];
    }
    if (!l) {
      fprintf(stderr, "delayline: %s: queue %u was not bound at the start; ignored\n", control,
              nums[i]);
      continue;
    }
    l->delay_ns = (int64_t)(ms[i] * 1e6 + 0.5);
  }
  return 0;
}

static void grow(struct line *l) {
  uint32_t cap = l->cap ? l->cap * 2 : 4096;
  struct pkt *r = malloc((size_t)cap * sizeof *r);
  if (!r) die("out of memory (queue %u, %u packets)", l->num, l->n);
  for (uint32_t i = 0; i < l->n; i++) r[i] = l->ring[(l->head + i) & (l->cap - 1)];
  free(l->ring);
  l->ring = r;
  l->cap = cap;
  l->head = 0;
}

static int on_packet(struct nfq_q_handle *qh, struct nfgenmsg *msg, struct nfq_data *nfa,
                     void *data) {
  (void)qh;
  (void)msg;
  struct line *l = data;
  struct nfqnl_msg_packet_hdr *ph = nfq_get_msg_packet_hdr(nfa);
  if (!ph) return 0;
  if (l->n == l->cap) grow(l);
  int64_t due = now_ns + l->delay_ns;
  if (due < l->last_due) due = l->last_due; /* never overtake the packet before */
  l->last_due = due;
  l->ring[(l->head + l->n) & (l->cap - 1)] = (struct pkt){ntohl(ph->packet_id), due};
  l->n++;
  l->packets++;
  if (l->n > l->max_depth) l->max_depth = l->n;
  return 0;
}

/* Accepts every packet of every queue that is due at time t (all of them if t is INT64_MAX). */
static void release(int64_t t) {
  for (int i = 0; i < nlines; i++) {
    struct line *l = &lines[i];
    uint32_t k = 0;
    while (k < l->n && l->ring[(l->head + k) & (l->cap - 1)].due <= t) k++;
    if (k == 0) continue;
    struct pkt *last = &l->ring[(l->head + k - 1) & (l->cap - 1)];
    if (t != INT64_MAX) {
      int64_t late = t - l->ring[l->head].due;
      if (late > l->max_late_ns) l->max_late_ns = late;
      int c = 0;
      while (c < 5 && late >= LATE_BOUNDS[c]) c++;
      l->late_hist[c]++;
      l->late_sum_ns += (double)late;
    }
    if (nfq_set_verdict_batch(l->qh, last->id, NF_ACCEPT) < 0)
      fprintf(stderr, "delayline: verdict for queue %u: %s\n", l->num, strerror(errno));
    l->head = (l->head + k) & (l->cap - 1);
    l->n -= k;
    l->batches++;
  }
}

static int64_t next_due(void) {
  int64_t next = INT64_MAX;
  for (int i = 0; i < nlines; i++)
    if (lines[i].n && lines[i].ring[lines[i].head].due < next) next = lines[i].ring[lines[i].head].due;
  return next;
}

static void stats(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  for (int i = 0; i < nlines; i++) {
    struct line *l = &lines[i];
    fprintf(stderr,
            "delayline: queue %u delay %.3f ms packets %llu batches %llu queued %u max-queued %llu "
            "late mean %.3f ms max %.3f ms; batches late <0.1/0.5/1/2/10/more ms "
            "%llu/%llu/%llu/%llu/%llu/%llu\n",
            l->num, l->delay_ns / 1e6, (unsigned long long)l->packets,
            (unsigned long long)l->batches, l->n, (unsigned long long)l->max_depth,
            l->batches ? l->late_sum_ns / l->batches / 1e6 : 0.0, l->max_late_ns / 1e6,
            (unsigned long long)l->late_hist[0], (unsigned long long)l->late_hist[1],
            (unsigned long long)l->late_hist[2], (unsigned long long)l->late_hist[3],
            (unsigned long long)l->late_hist[4], (unsigned long long)l->late_hist[5]);
  }
  fprintf(stderr, "delayline: cpu user %.3f s sys %.3f s\n",
          ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
          ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
}

/* Reads what the kernel has queued, RECV_BATCH messages per call, up to DRAIN_LIMIT. */
static void drain(struct nfq_handle *h, int fd) {
  static char bufs[RECV_BATCH][RECV_BUF];
  struct iovec iov[RECV_BATCH];
  struct mmsghdr msgs[RECV_BATCH];
  for (int got = 0; got < DRAIN_LIMIT;) {
    memset(msgs, 0, sizeof msgs);
    for (int i = 0; i < RECV_BATCH; i++) {
      iov[i] = (struct iovec){bufs[i], RECV_BUF};
      msgs[i].msg_hdr.msg_iov = &iov[i];
      msgs[i].msg_hdr.msg_iovlen = 1;
    }
    int n = recvmmsg(fd, msgs, RECV_BATCH, MSG_DONTWAIT, NULL);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return;
      if (errno == ENOBUFS) { /* the kernel dropped messages (and so their packets) */
        fprintf(stderr, "delayline: netlink receive buffer overrun (packets dropped)\n");
        continue;
      }
      die("recvmmsg: %s", strerror(errno));
    }
    now_ns = mono_ns();
    for (int i = 0; i < n; i++) nfq_handle_packet(h, bufs[i], (int)msgs[i].msg_len);
    got += n;
    if (n < RECV_BATCH) return;
  }
}

static void bind_queues(struct nfq_handle *h, unsigned maxlen) {
  for (int i = 0; i < nlines; i++) {
    struct line *l = &lines[i];
    l->qh = nfq_create_queue(h, l->num, on_packet, l);
    if (!l->qh) die("cannot bind queue %u (another program bound it?): %s", l->num, strerror(errno));
    if (nfq_set_mode(l->qh, NFQNL_COPY_META, 0) < 0) die("queue %u: copy mode: %s", l->num, strerror(errno));
    if (nfq_set_queue_maxlen(l->qh, maxlen) < 0) die("queue %u: maxlen: %s", l->num, strerror(errno));
    if (nfq_set_queue_flags(l->qh, NFQA_CFG_F_GSO, NFQA_CFG_F_GSO) < 0)
      fprintf(stderr, "delayline: queue %u: GSO flag refused; packets are segmented\n", l->num);
    grow(l);
  }
}

int main(int argc, char **argv) {
  unsigned maxlen = 131072;
  int64_t slice_ns = 100000;
  int idle_slice = 1;
  const char *ready = NULL;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i += 2) {
    if (i + 1 >= argc) die("%s needs a value", argv[i]);
    if (!strcmp(argv[i], "--maxlen")) {
      char *end;
      unsigned long v = strtoul(argv[i + 1], &end, 10);
      if (*end || v < 16 || v > (1u << 24)) die("--maxlen: expected 16-16777216 packets: %s", argv[i + 1]);
      maxlen = (unsigned)v;
    } else if (!strcmp(argv[i], "--slice")) {
      char *end;
      unsigned long v = strtoul(argv[i + 1], &end, 10);
      if (*end || v > 1000000) die("--slice: expected 0-1000000 microseconds: %s", argv[i + 1]);
      slice_ns = (int64_t)v * 1000;
    } else if (!strcmp(argv[i], "--idle-slice")) {
      idle_slice = !strcmp(argv[i + 1], "on");
      if (!idle_slice && strcmp(argv[i + 1], "off")) die("--idle-slice: expected on or off: %s", argv[i + 1]);
    } else if (!strcmp(argv[i], "--ready")) {
      ready = argv[i + 1];
    } else {
      die("unknown option %s (usage: delayline [--maxlen N] [--slice US] [--idle-slice on|off] [--ready FILE] "
          "CONTROL)",
          argv[i]);
    }
  }
  if (i != argc - 1) die("usage: delayline [--maxlen N] [--slice US] [--idle-slice on|off] [--ready FILE] CONTROL");
  control = argv[i];
  if (read_control(1) < 0) return 1;

  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGHUP);
  sigaddset(&sigs, SIGUSR1);
  sigaddset(&sigs, SIGTERM);
  sigaddset(&sigs, SIGINT);
  sigprocmask(SIG_BLOCK, &sigs, NULL);
  int sfd = signalfd(-1, &sigs, SFD_NONBLOCK | SFD_CLOEXEC);
  if (sfd < 0) die("signalfd: %s", strerror(errno));
  prctl(PR_SET_TIMERSLACK, 1000UL); /* wake within a microsecond of the due time, not 50 */

  struct nfq_handle *h = nfq_open();
  if (!h) die("cannot open the netfilter queue socket (root? CONFIG_NETFILTER_NETLINK_QUEUE?): %s",
              strerror(errno));
  int fd = nfq_fd(h);
  int size = 64 << 20, on = 1;
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) < 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  setsockopt(fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, &on, sizeof on);
  bind_queues(h, maxlen);
  if (ready) {
    FILE *r = fopen(ready, "w");
    if (!r) die("--ready: cannot write %s: %s", ready, strerror(errno));
    fprintf(r, "%d\n", (int)getpid());
    fclose(r);
  }
  for (int k = 0; k < nlines; k++)
    fprintf(stderr, "delayline: queue %u delay %.3f ms\n", lines[k].num, lines[k].delay_ns / 1e6);

  for (;;) {
    int64_t t = mono_ns();
    release(t);
    int64_t next = next_due();
    struct timespec ts, *tp = NULL;
    if (next == INT64_MAX && idle_slice && slice_ns > 0) {
      ts = (struct timespec){0, slice_ns};
      tp = &ts;
    } else if (next != INT64_MAX) {
      int64_t w = next - mono_ns();
      if (w < 0) w = 0;
      if (slice_ns > 0 && w > slice_ns) w = slice_ns;
      ts = (struct timespec){w / 1000000000, w % 1000000000};
      tp = &ts;
    }
    struct pollfd p[2] = {{fd, POLLIN, 0}, {sfd, POLLIN, 0}};
    if (ppoll(p, 2, tp, NULL) < 0 && errno != EINTR) die("ppoll: %s", strerror(errno));
    if (p[0].revents & POLLIN) drain(h, fd);
    if (p[1].revents & POLLIN) {
      struct signalfd_siginfo si;
      while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si) {
        if (si.ssi_signo == SIGHUP) {
          if (read_control(0) == 0)
            for (int k = 0; k < nlines; k++)
              fprintf(stderr, "delayline: queue %u delay %.3f ms\n", lines[k].num,
                      lines[k].delay_ns / 1e6);
        } else if (si.ssi_signo == SIGUSR1) {
          stats();
        } else {
          release(INT64_MAX);
          stats();
          for (int k = 0; k < nlines; k++) nfq_destroy_queue(lines[k].qh);
          nfq_close(h);
          return 0;
        }
      }
    }
  }
}
