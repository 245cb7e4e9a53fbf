/* The C twin of conformance/examples/echo_plugin.rs, line mode only: for
 * every line on stdin write {"jsonrpc":"2.0","id":<id>,"result":{}} and
 * flush, <id> copied from the request's "id": member as written. */
#include <stdio.h>
#include <string.h>
#include <ctype.h>

int main(void) {
    static char line[1 << 20];
    while (fgets(line, sizeof line, stdin)) {
        const char *id = "null";
        size_t len = 4;
        char *at = strstr(line, "\"id\":");
        if (at) {
            char *v = at + 5;
            while (*v == ' ') v++;
            char *end = v;
            if (*v == '"') {
                end = strchr(v + 1, '"');
                end = end ? end + 1 : v + strlen(v);
            } else {
                while (*end && *end != ',' && *end != '}' && !isspace((unsigned char)*end)) end++;
            }
            if (end > v) { id = v; len = (size_t)(end - v); }
        }
        fputs("{\"jsonrpc\":\"2.0\",\"id\":", stdout);
        fwrite(id, 1, len, stdout);
        fputs(",\"result\":{}}\n", stdout);
        fflush(stdout);
    }
    return 0;
}
