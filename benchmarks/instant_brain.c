/* A Gomoku AI protocol brain that answers at once, for measuring managers:
 * it plays the empty cell nearest after a pseudo-random one (xorshift,
 * seeded by its first argument), remembering the stones it was told. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int size = 15;
static unsigned char taken[32 * 32];
static unsigned long state = 88172645463325252UL;

static void play(void) {
    state ^= state << 13; state ^= state >> 7; state ^= state << 17;
    int cells = size * size, at = (int)(state % (unsigned long)cells);
    for (int i = 0; i < cells; i++) {
        int c = (at + i) % cells;
        if (!taken[c]) {
            taken[c] = 1;
            printf("%d,%d\n", c % size, c / size);
            fflush(stdout);
            return;
        }
    }
}

static void mark(const char *xy) {
    int x, y;
    if (sscanf(xy, "%d,%d", &x, &y) == 2 && x >= 0 && y >= 0 && x < size && y < size)
        taken[y * size + x] = 1;
}

int main(int argc, char **argv) {
    char line[256];
    if (argc > 1) state += strtoul(argv[1], NULL, 10) * 2654435761UL;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!strncmp(line, "START", 5) || !strcmp(line, "RESTART")) {
            if (line[0] == 'S') size = atoi(line + 6);
            if (size < 5 || size > 32) { puts("ERROR size"); fflush(stdout); continue; }
            memset(taken, 0, sizeof taken);
            puts("OK");
            fflush(stdout);
        } else if (!strcmp(line, "BEGIN")) {
            play();
        } else if (!strncmp(line, "TURN ", 5)) {
            mark(line + 5);
            play();
        } else if (!strcmp(line, "BOARD")) {
            memset(taken, 0, sizeof taken);
            while (fgets(line, sizeof line, stdin) && strncmp(line, "DONE", 4)) mark(line);
            play();
        } else if (!strcmp(line, "END")) {
            return 0;
        } else if (!strncmp(line, "ABOUT", 5)) {
            puts("name=\"instant\", version=\"1\"");
            fflush(stdout);
        }
    }
    return 0;
}
