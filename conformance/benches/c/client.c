/* The bare client `proctor load --protocol promptkit-server` is compared
 * with: start the plugin with pipes, then N strictly serial round trips
 * (write the request line, read one reply line), close stdin, wait.
 * Usage: client N REQUEST_LINE_FILE -- PLUGIN [ARG...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

int main(int argc, char **argv) {
    if (argc < 5 || strcmp(argv[3], "--") != 0) {
        fprintf(stderr, "usage: client N REQUEST_LINE_FILE -- PLUGIN [ARG...]\n");
        return 2;
    }
    long n = atol(argv[1]);
    FILE *f = fopen(argv[2], "r");
    static char request[1 << 16];
    if (!f || !fgets(request, sizeof request, f)) { perror(argv[2]); return 2; }
    size_t request_len = strlen(request);
    int to_plugin[2], from_plugin[2];
    if (pipe(to_plugin) || pipe(from_plugin)) { perror("pipe"); return 2; }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to_plugin[0], 0);
        dup2(from_plugin[1], 1);
        close(to_plugin[1]);
        close(from_plugin[0]);
        execvp(argv[4], argv + 4);
        perror(argv[4]);
        _exit(127);
    }
    close(to_plugin[0]);
    close(from_plugin[1]);
    FILE *replies = fdopen(from_plugin[0], "r");
    static char reply[1 << 16];
    for (long i = 0; i < n; i++) {
        if (write(to_plugin[1], request, request_len) != (ssize_t)request_len) { perror("write"); return 1; }
        if (!fgets(reply, sizeof reply, replies)) { fprintf(stderr, "no reply %ld\n", i); return 1; }
    }
    close(to_plugin[1]);
    int status;
    waitpid(pid, &status, 0);
    return 0;
}
