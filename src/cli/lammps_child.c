/*
 * lammps_child.c - LAMMPS as a child process: its private folder and log,
 * a free port, the start and the wait until fix imd listens, and its end
 * (see lammps.h).
 */
#define _XOPEN_SOURCE 700 /* nftw */
#define _DEFAULT_SOURCE /* mkdtemp */

#include "lammps.h"

#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void nap(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int lammps_ranks(const char *arg)
{
    if (!arg || !*arg)
        return 0;
    unsigned long long v = cli_count("--engine=lammps:RANKS", arg);
    if (v < 1 || v > LAMMPS_RANKS_MAX)
        cli_die("--engine=lammps:RANKS: '%s' must be 1 to %d", arg, LAMMPS_RANKS_MAX);
    return (int)v;
}

int lammps_child_dir(struct lammps_child *c, int ranks, char *msg, size_t size)
{
    memset(c, 0, sizeof *c);
    c->ranks = ranks;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    char dir[PATH_MAX];
    if ((size_t)snprintf(dir, sizeof dir, "%s/springball-lammps-XXXXXX", tmp) >= sizeof dir - 8) {
        snprintf(msg, size, "the temporary folder's name is too long ($TMPDIR)");
        return -1;
    }
    if (!mkdtemp(dir)) {
        snprintf(msg, size, "cannot make a folder in %s: %s", tmp, strerror(errno));
        return -1;
    }
    snprintf(c->dir, sizeof c->dir, "%s", dir);
    /* The folder's name is unique: FOLDER.log is new (O_EXCL says so). */
    snprintf(c->log, sizeof c->log, "%s.log", dir);
    int fd = open(c->log, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        snprintf(msg, size, "cannot make the log %s: %s", c->log, strerror(errno));
        c->log[0] = 0;
        lammps_child_end(c, 0);
        return -1;
    }
    close(fd);
    return 0;
}

int lammps_child_path(const struct lammps_child *c, const char *name, char *out, size_t size)
{
    return (size_t)snprintf(out, size, "%s/%s", c->dir, name) < size ? 0 : -1;
}

/* A port the kernel says is free now: bound to port 0 on every address
 * (as fix imd binds), read back, closed. 0 when there is none. */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    int port = 0;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    close(fd);
    return port >= 1024 ? port : 0; /* fix imd takes no lower */
}

/* The program @p name as PATH finds it (execvp's search), in @p out.
 * @return 0, or -1 when no directory of PATH holds it. */
static int on_path(const char *name, char *out, size_t size)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/bin:/bin";
    for (const char *p = path;; p++) {
        const char *q = strchr(p, ':');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        struct stat st;
        if ((size_t)snprintf(out, size, "%.*s%s%s", (int)len, p, len ? "/" : "", name) < size &&
            stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
            return 0;
        if (!q)
            return -1;
        p = q;
    }
}

extern char **environ;

/* Forks the child: its own process group, the folder as its directory
 * and its TMPDIR (MPI's session files go there too), its output appended
 * to the log, nothing on its input. The programs are looked up on PATH
 * first, so that a missing one is said as such; an exec that fails
 * reports errno through a pipe closed by a good exec. @return 0, or -1
 * with the message. */
static int spawn(struct lammps_child *c, const char *in, char *msg, size_t size)
{
    char port[16], ranks[16], lmp[PATH_MAX], prog[PATH_MAX];
    snprintf(port, sizeof port, "%d", c->port);
    snprintf(ranks, sizeof ranks, "%d", c->ranks);
    if (on_path("lmp", lmp, sizeof lmp) || (c->ranks && on_path("mpirun", prog, sizeof prog))) {
        snprintf(msg, size, "'%s' is not on PATH (Debian: apt install %s)",
                 c->ranks && on_path("lmp", lmp, sizeof lmp) == 0 ? "mpirun" : "lmp",
                 c->ranks && on_path("lmp", lmp, sizeof lmp) == 0 ? "openmpi-bin" : "lammps");
        return -1;
    }
    char *serial[] = {lmp, "-in", (char *)in, "-log", "none", "-nocite",
                      "-var", "sbport", port, NULL};
    char *mpi[] = {prog, "-np", ranks, lmp, "-in", (char *)in, "-log", "none",
                   "-nocite", "-var", "sbport", port, NULL};
    char **argv = c->ranks ? mpi : serial;
    /* the environment, TMPDIR the folder (made here: no malloc after fork) */
    size_t ne = 0;
    while (environ[ne])
        ne++;
    char **env = malloc((ne + 2) * sizeof *env);
    char *tmpdir = malloc(strlen(c->dir) + 8);
    if (!env || !tmpdir) {
        free(env), free(tmpdir);
        snprintf(msg, size, "out of memory");
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < ne; i++)
        if (strncmp(environ[i], "TMPDIR=", 7))
            env[k++] = environ[i];
    sprintf(tmpdir, "TMPDIR=%s", c->dir);
    env[k++] = tmpdir;
    env[k] = NULL;
    int pfd[2];
    if (pipe(pfd)) {
        free(env), free(tmpdir);
        snprintf(msg, size, "pipe: %s", strerror(errno));
        return -1;
    }
    fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
    fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(pfd[0]), close(pfd[1]);
        free(env), free(tmpdir);
        snprintf(msg, size, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
#ifdef __linux__
        prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
        /* the signals springball catches are the child's defaults again */
        signal(SIGHUP, SIG_DFL), signal(SIGINT, SIG_DFL), signal(SIGTERM, SIG_DFL);
        signal(SIGPIPE, SIG_DFL), signal(SIGXFSZ, SIG_DFL);
        int e = 0;
        int lfd = open(c->log, O_WRONLY | O_APPEND);
        int nfd = open("/dev/null", O_RDONLY);
        if (lfd < 0 || nfd < 0 || chdir(c->dir) || dup2(nfd, 0) < 0 || dup2(lfd, 1) < 0 ||
            dup2(lfd, 2) < 0)
            e = errno ? errno : EIO;
        if (!e) {
            execve(argv[0], argv, env);
            e = errno;
        }
        ssize_t w = write(pfd[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    free(env), free(tmpdir);
    setpgid(pid, pid); /* also here: no race with a kill of the group */
    close(pfd[1]);
    c->pid = pid;
    c->done = 0;
    int e = 0;
    ssize_t got;
    do
        got = read(pfd[0], &e, sizeof e);
    while (got < 0 && errno == EINTR);
    close(pfd[0]);
    if (got == (ssize_t)sizeof e) {
        waitpid(pid, NULL, 0);
        c->pid = 0;
        snprintf(msg, size, "cannot run '%s': %s", argv[0], strerror(e));
        return -1;
    }
    return 0;
}

/* 1 when the log says that LAMMPS could not bind its port (fix imd's
 * perror; another process took it after free_port). The log is read from
 * its last 64 KiB. */
static int bind_failed(const struct lammps_child *c)
{
    FILE *f = fopen(c->log, "r");
    if (!f)
        return 0;
    static char buf[1 << 16];
    if (fseek(f, 0, SEEK_END) == 0) {
        long end = ftell(f);
        fseek(f, end > (long)sizeof buf - 1 ? end - (long)sizeof buf + 1 : 0, SEEK_SET);
    }
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    for (size_t i = 0; i < n; i++)
        if (!buf[i])
            buf[i] = ' ';
    return strstr(buf, "bind to socket failed") != NULL;
}

static void end_leader(struct lammps_child *c, pid_t pg);

/* Reaps the child when it ended; 1 when it has. */
static int reaped(struct lammps_child *c)
{
    if (!c->pid)
        return c->done;
    int st;
    pid_t r = waitpid(c->pid, &st, WNOHANG);
    if (r == c->pid) {
        c->status = st;
        c->done = 1;
        c->pid = 0;
        return 1;
    }
    return 0;
}

/*
 * mpirun puts its ranks in process groups of their own: they are found as
 * the child's descendants (Linux's /proc: each process's parent and start
 * time), and those left once mpirun is gone (it ends them on SIGTERM; not
 * after a SIGKILL) are killed, each only while its start time says it is
 * still the same process.
 */
#define KIN_MAX 256
struct kin {
    pid_t pid[KIN_MAX];
    unsigned long long start[KIN_MAX];
    int n;
};

/* Parent and start time of @p pid from /proc/PID/stat; -1 when gone. */
static int proc_stat(pid_t pid, pid_t *ppid, unsigned long long *start)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    /* after the command's ")": state ppid, then 18 fields to starttime */
    char *p = strrchr(buf, ')');
    if (!p)
        return -1;
    long pp = 0;
    unsigned long long st = 0;
    int k = 0;
    for (char *q = strtok(p + 2, " "); q; q = strtok(NULL, " "), k++) {
        if (k == 1)
            pp = strtol(q, NULL, 10);
        if (k == 19) {
            st = strtoull(q, NULL, 10);
            break;
        }
    }
    if (k != 19)
        return -1;
    *ppid = (pid_t)pp;
    *start = st;
    return 0;
}

/* Whether @p pid is a zombie (its state Z in /proc/PID/stat). */
static int proc_zombie(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    return !p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X';
}

/* The descendants of @p root now, into @p k. */
static void find_kin(pid_t root, struct kin *k)
{
    k->n = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return;
    pid_t all[4096], par[4096];
    unsigned long long st[4096];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 4096) {
        char *end;
        long v = strtol(e->d_name, &end, 10);
        if (*end || v <= 0)
            continue;
        if (proc_stat((pid_t)v, &par[n], &st[n]) == 0)
            all[n++] = (pid_t)v;
    }
    closedir(d);
    /* breadth first from root: a process whose parent is in the list */
    pid_t front[KIN_MAX + 1];
    int nf = 1;
    front[0] = root;
    for (int at = 0; at < nf; at++)
        for (int i = 0; i < n && k->n < KIN_MAX; i++)
            if (par[i] == front[at]) {
                k->pid[k->n] = all[i], k->start[k->n++] = st[i];
                front[nf++] = all[i];
            }
}

/* Kills those of @p k still there as the same processes, and waits (a
 * grace at most) until none runs: gone, or a zombie for init to reap. */
static void kill_kin(const struct kin *k)
{
    double until = now() + LAMMPS_CHILD_GRACE;
    for (int sent = 0;; sent = 1) {
        int left = 0;
        for (int i = 0; i < k->n; i++) {
            pid_t pp;
            unsigned long long st;
            if (proc_stat(k->pid[i], &pp, &st) == 0 && st == k->start[i] &&
                !proc_zombie(k->pid[i])) {
                left++;
                if (!sent)
                    kill(k->pid[i], SIGKILL);
            }
        }
        if (!left || now() > until)
            return;
        nap(10);
    }
}

/* Kills what is left of process group @p pg: SIGTERM, then SIGKILL after
 * the grace; the leader is reaped on the way, then its descendants left
 * in other groups are killed. */
static void end_group(struct lammps_child *c, pid_t pg)
{
    struct kin k;
    find_kin(pg, &k);
    end_leader(c, pg);
    kill_kin(&k);
}

static void end_leader(struct lammps_child *c, pid_t pg)
{
    if (kill(-pg, SIGTERM) && errno == ESRCH)
        return;
    double until = now() + LAMMPS_CHILD_GRACE;
    int killed = 0;
    for (;;) {
        reaped(c);
        /* the group is gone once no member is left (the leader reaped) */
        if (!c->pid && kill(-pg, 0) && errno == ESRCH)
            return;
        if (!killed && now() > until) {
            kill(-pg, SIGKILL);
            killed = 1;
            until = now() + LAMMPS_CHILD_GRACE;
        } else if (killed && now() > until) {
            return; /* a member that outlives SIGKILL: nothing more to do */
        }
        nap(10);
    }
}

/*
 * fix imd says nothing when it listens (this LAMMPS buffers the line that
 * would say so in a file): the link is the signal. fix imd with nowait off
 * accepts one client and answers it with its handshake, so the connection
 * asked again while it is refused is the run's own client, no probe.
 */
int lammps_child_start(struct lammps_child *c, const char *in, double timeout,
                       struct imd_conn *link, size_t natoms,
                       volatile const sig_atomic_t *stop, char *msg, size_t size)
{
    for (int tries = 0; tries < LAMMPS_CHILD_TRIES; tries++) {
        if (!(c->port = free_port())) {
            snprintf(msg, size, "no free port for fix imd");
            return -1;
        }
        if (spawn(c, in, msg, size))
            return -1;
        char where[32];
        snprintf(where, sizeof where, "127.0.0.1:%d", c->port);
        double until = now() + timeout;
        int rc = -1;
        while (!(stop && *stop) && !reaped(c)) {
            double left = until - now();
            if (left <= 0) {
                snprintf(msg, size, "LAMMPS did not listen within %g s", timeout);
                break;
            }
            if (imd_open_until(link, where, left, natoms, stop) == 0) {
                rc = 0;
                break;
            }
            if (!link->refused) {
                snprintf(msg, size, "%s", link->msg);
                break;
            }
            nap(20);
        }
        if (rc == 0)
            return 0;
        if (stop && *stop) {
            snprintf(msg, size, "stopped by a signal");
            lammps_child_end_run(c);
            return -1;
        }
        if (!c->done) {
            lammps_child_end_run(c);
            return -1;
        }
        if (!bind_failed(c)) {
            if (WIFEXITED(c->status))
                snprintf(msg, size, "LAMMPS ended before it listened (exit status %d)",
                         WEXITSTATUS(c->status));
            else
                snprintf(msg, size, "LAMMPS ended before it listened (signal %d)",
                         WIFSIGNALED(c->status) ? WTERMSIG(c->status) : 0);
            return -1;
        }
        /* another process took the port between free_port and the bind */
    }
    snprintf(msg, size, "LAMMPS could not bind a port %d times", LAMMPS_CHILD_TRIES);
    return -1;
}

int lammps_child_wait(struct lammps_child *c, double timeout)
{
    double until = now() + timeout;
    while (!reaped(c)) {
        if (now() > until)
            return 0;
        nap(10);
    }
    return 1;
}

int lammps_child_ok(const struct lammps_child *c)
{
    return c->done && WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0;
}

/* One entry of the folder, removed (nftw, depth first, links not
 * followed: MPI's session folders are inside). */
static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void remove_dir(const char *dir)
{
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

void lammps_child_end_run(struct lammps_child *c)
{
    if (c->pid)
        end_group(c, c->pid);
}

void lammps_child_end(struct lammps_child *c, int keep_log)
{
    lammps_child_end_run(c);
    if (c->dir[0])
        remove_dir(c->dir);
    c->dir[0] = 0;
    if (c->log[0] && !keep_log)
        unlink(c->log);
    if (!keep_log)
        c->log[0] = 0;
}
