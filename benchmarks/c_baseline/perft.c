/*
 * perft.c: a plain C yardstick for katra's compiled core.
 *
 * Copy-make perft (docs/rules.md §1.4) for the seven games of docs/rules.md: Katro
 * (6x6, 4x6, 4x4), Katra Mpantsaka (and its simplified variant), Goré and
 * Djenon-aboure.  One file, C11, no dependencies:
 *
 *     gcc -O3 -march=native -o perft perft.c
 *     ./perft <game-id> <depth> [position-text]
 *
 * prints "nodes=<n> seconds=<s>" (only the perft itself is timed, with
 * CLOCK_MONOTONIC).  Without a position text the game's start position is
 * used; the text (docs/rules.md §1.5) may be one argument or several.
 *
 * The design is what one would write by hand for speed:
 *   - a position is a small struct of uint8 counts (plus stores, owners and
 *     offer for Goré / Djenon-aboure) copied by assignment for each child;
 *   - Katro and Katra Mpantsaka boards use a row stride of 8, so a row is one
 *     64-bit word and "is this row empty" is a single load and compare;
 *   - next-hole tables per player (and direction) are built once;
 *   - at depth 1 the legal moves are only counted; counting still needs a
 *     simulation of every relay sowing, since a candidate whose sowing needs
 *     more than LAP_LIMIT laps is not legal (docs/rules.md §1.3);
 *   - the lap limit is plain lap counting; with CYCLE_CHECK (default on) a
 *     Brent cycle detector on lap-start states (board, hole, hand) starts
 *     after CYCLE_START laps and stops never-ending moves early.  The verdict
 *     is the same either way; compile with -DCYCLE_CHECK=0 for plain
 *     counting only.
 *
 * Counts are uint8, so a position may hold at most 255 seeds (every game
 * starts with at most 72 and seeds are never created).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LAP_LIMIT 10000
#ifndef CYCLE_CHECK
#define CYCLE_CHECK 1
#endif
#ifndef CYCLE_START
#define CYCLE_START 16          /* laps of one run before the detector starts */
#endif

enum { KATRO, MPANTSAKA, GORE, DJENON };

typedef struct {
    const char *id;
    int family, rows, cols, seeds, simplified;
} Spec;

static const Spec SPECS[] = {
    {"katro", KATRO, 6, 6, 2, 0},
    {"katro-4x6", KATRO, 4, 6, 2, 0},
    {"katro-4x4", KATRO, 4, 4, 2, 0},
    {"katra-mpantsaka", MPANTSAKA, 4, 8, 2, 0},
    {"katra-mpantsaka-simplified", MPANTSAKA, 4, 8, 2, 1},
    {"gore", GORE, 2, 4, 6, 0},
    {"djenon-aboure", DJENON, 2, 6, 4, 0},
};
#define NUM_GAMES ((int)(sizeof SPECS / sizeof SPECS[0]))

static const Spec *G;           /* the game being counted */

static _Noreturn void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "perft: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(2);
}

/* ------------------------------------------------------------------ */
/* Katro and Katra Mpantsaka: padded boards, hole = row * 8 + col.     */

#define STRIDE 8
#define MAXB (6 * STRIDE)

typedef struct { uint8_t b[MAXB]; } Board;

static int D;                      /* rows per player */
static uint8_t NEXT[2][2][MAXB];   /* [player][direction][hole] (Katro: direction 0) */
static int ROW[2][3];              /* [player][depth] -> row; depth 0 = outer */
static int DEPTH[MAXB];            /* depth of a hole for the player owning it */
static int FACING[2][MAXB];        /* Mpantsaka: [mover][h] opponent front hole facing h, or -1 */

static inline uint64_t row_word(const uint8_t *b, int row)
{
    uint64_t w;
    memcpy(&w, b + row * STRIDE, sizeof w);
    return w;
}

/* Brent's cycle detection over lap-start states (docs/rules.md §1.3).  A state is
 * the board after the lift, the hole sowing continues from and the hand; it
 * fixes the rest of the move, so a repeated state means the move never ends
 * (and would reach the lap limit).  Captures never lie on a cycle, so the
 * detector restarts after each one. */
typedef struct {
    int active, power, lam, h, hand;
    uint8_t b[MAXB];
} Cycle;

static inline int cycle_seen(Cycle *c, const uint8_t *b, int nbytes, int h, int hand)
{
    if (c->active) {
        if (h == c->h && hand == c->hand && memcmp(b, c->b, nbytes) == 0)
            return 1;
        if (++c->lam < c->power)
            return 0;
        c->power *= 2;
    } else {
        c->active = 1;
        c->power = 1;
    }
    c->lam = 0;
    c->h = h;
    c->hand = hand;
    memcpy(c->b, b, nbytes);
    return 0;
}

/* The opponent hole a Katro landing in h captures, or -1 (§2.3 step 2).
 * h is the mover's and non-empty. */
static inline int katro_target(const uint8_t *b, int me, int h)
{
    for (int d = DEPTH[h] + 1; d < D; d++)      /* h must be in the mover's */
        if (row_word(b, ROW[me][d]))             /* innermost non-empty row  */
            return -1;
    const int *opp = ROW[1 - me];
    for (int d = D - 1; d >= 0; d--)             /* opponent's innermost non-empty row */
        if (row_word(b, opp[d])) {
            int t = opp[d] * STRIDE + (h & (STRIDE - 1));
            return b[t] ? t : -1;
        }
    return -1;                                   /* the opponent has no seeds */
}

/* Sow a Katro move from origin h in place; 1 if it ends within the limit. */
static int katro_sow(uint8_t *b, int me, int h)
{
    const uint8_t *nx = NEXT[me][0];
    int hand = b[h];
    b[h] = 0;
#if CYCLE_CHECK
    Cycle cyc;
    cyc.active = 0;
#endif
    for (int laps = 1;; laps++) {
#if CYCLE_CHECK
        if (laps >= CYCLE_START && cycle_seen(&cyc, b, MAXB, h, hand))
            return 0;
#endif
        do {
            h = nx[h];
            b[h]++;
        } while (--hand);
        if (b[h] == 1)                  /* landed in an empty hole: the move ends */
            return 1;
        if (laps == LAP_LIMIT)          /* a further lap would pass the limit */
            return 0;
        int t = katro_target(b, me, h);
        hand = b[h];
        b[h] = 0;
        if (t >= 0) {                   /* capture: both sown on from after h */
            hand += b[t];
            b[t] = 0;
#if CYCLE_CHECK
            cyc.active = 0;
#endif
        }
    }
}

static uint64_t katro_perft(const Board *p, int me, int depth)
{
    int row = -1;
    for (int d = 0; d < D; d++)         /* outermost non-empty row (§2.2) */
        if (row_word(p->b, ROW[me][d])) {
            row = ROW[me][d];
            break;
        }
    if (row < 0)
        return 0;
    uint64_t n = 0;
    for (int o = row * STRIDE, end = o + G->cols; o < end; o++) {
        if (!p->b[o])
            continue;
        Board c = *p;
        if (katro_sow(c.b, me, o))
            n += depth == 1 ? 1 : katro_perft(&c, 1 - me, depth - 1);
    }
    return n;
}

/* Sow a Katra Mpantsaka move (origin h, direction dir) in place (§3.3). */
static int mpantsaka_sow(uint8_t *b, int me, int h, int dir)
{
    const uint8_t *nx = NEXT[me][dir];
    const int *facing = FACING[me];
    int hand = b[h];
    b[h] = 0;
#if CYCLE_CHECK
    Cycle cyc;
    cyc.active = 0;
#endif
    for (int laps = 1;; laps++) {
#if CYCLE_CHECK
        if (laps >= CYCLE_START && cycle_seen(&cyc, b, 4 * STRIDE, h, hand))
            return 0;
#endif
        do {
            h = nx[h];
            b[h]++;
        } while (--hand);
        if (b[h] == 1)
            return 1;
        if (laps == LAP_LIMIT)
            return 0;
        hand = b[h];
        b[h] = 0;
        int t = facing[h];
        if (t >= 0 && b[t]) {           /* front row, facing hole not empty */
            hand += b[t];
            b[t] = 0;
#if CYCLE_CHECK
            cyc.active = 0;
#endif
        }
    }
}

static uint64_t mpantsaka_perft(const Board *p, int me, int depth)
{
    int front = ROW[me][1], back = ROW[me][0];
    int first, last;                    /* origin rows to scan, as hole ranges */
    if (G->simplified) {
        first = me == 0 ? back : front;
        last = me == 0 ? front : back;
    } else {
        first = last = row_word(p->b, front) ? front : back;
    }
    uint64_t n = 0;
    for (int row = first; row <= last; row++)
        for (int o = row * STRIDE, end = o + STRIDE; o < end; o++) {
            if (!p->b[o])
                continue;
            for (int dir = 0; dir < 2; dir++) {
                Board c = *p;
                if (mpantsaka_sow(c.b, me, o, dir))
                    n += depth == 1 ? 1 : mpantsaka_perft(&c, 1 - me, depth - 1);
            }
        }
    return n;
}

/* The serpentine (Katro) / CCW loop (Mpantsaka) tables, docs/rules.md §2.1, §3.1. */
static void setup_rows_game(void)
{
    int R = G->rows, C = G->cols, L = 0;
    int south[MAXB];
    D = R / 2;
    for (int r = 0; r < D; r++)
        for (int k = 0; k < C; k++)
            south[L++] = r * STRIDE + (r % 2 == 0 ? k : C - 1 - k);
    for (int k = 0; k < L; k++) {
        int a = south[k], b = south[(k + 1) % L];
        /* half turn: (row, col) -> (R-1-row, C-1-col) */
        int ra = (R - 1 - a / STRIDE) * STRIDE + (C - 1 - a % STRIDE);
        int rb = (R - 1 - b / STRIDE) * STRIDE + (C - 1 - b % STRIDE);
        NEXT[0][0][a] = (uint8_t)b;
        NEXT[0][1][b] = (uint8_t)a;
        NEXT[1][0][ra] = (uint8_t)rb;
        NEXT[1][1][rb] = (uint8_t)ra;
    }
    for (int d = 0; d < D; d++) {
        ROW[0][d] = d;
        ROW[1][d] = R - 1 - d;
    }
    for (int i = 0; i < MAXB; i++) {
        int r = i / STRIDE;
        DEPTH[i] = r < D ? r : R - 1 - r;
        FACING[0][i] = FACING[1][i] = -1;
    }
    if (G->family == MPANTSAKA)
        for (int c = 0; c < C; c++) {
            FACING[0][1 * STRIDE + c] = 2 * STRIDE + c;
            FACING[1][2 * STRIDE + c] = 1 * STRIDE + c;
        }
}

/* ------------------------------------------------------------------ */
/* Goré (§4): 8 holes, owners as a bit mask, stores, a pending offer.   */

typedef struct {
    uint8_t b[8];
    uint8_t north;      /* bit i: hole i is owned by North */
    uint8_t offer;      /* mask offered by the player not to move, 0 if none */
    uint8_t to_move;
    int16_t store[2];
} Gore;

/* CCW: a1 b1 c1 d1 d2 c2 b2 a2 = 0 1 2 3 7 6 5 4 */
static const uint8_t GORE_NEXT[8] = {1, 2, 3, 7, 0, 4, 5, 6};
static const uint8_t GORE_PREV[8] = {4, 0, 1, 2, 5, 6, 7, 3};
static const int CHOOSE[9][4] = {
    {1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 1, 0}, {1, 3, 3, 1}, {1, 4, 6, 4},
    {1, 5, 10, 10}, {1, 6, 15, 20}, {1, 7, 21, 35}, {1, 8, 28, 56},
};

static void gore_sow(Gore *p, int h)
{
    uint8_t *b = p->b;
    int me = p->to_move, hand = b[h];
    b[h] = 0;
    do {
        h = GORE_NEXT[h];
        b[h]++;
    } while (--hand);
    int owner = p->north >> h & 1;
    if (owner != me && (b[h] == 2 || b[h] == 4)) {
        int got = b[h];
        b[h] = 0;               /* the runs stop here at the latest */
        for (int k = GORE_NEXT[h]; b[k] == 2 || b[k] == 4; k = GORE_NEXT[k]) {
            got += b[k];
            b[k] = 0;
        }
        for (int k = GORE_PREV[h]; b[k] == 2 || b[k] == 4; k = GORE_PREV[k]) {
            got += b[k];
            b[k] = 0;
        }
        p->store[me] += got;
    }
}

static uint64_t gore_perft(const Gore *p, int depth)
{
    int me = p->to_move;
    if (p->offer) {                     /* accept or decline, the answerer keeps the turn */
        if (depth == 1)
            return 2;
        Gore a = *p, d = *p;
        for (int i = 0; i < 8; i++)
            if (p->offer >> i & 1) {
                a.b[i] += 6;
                a.store[me] -= 6;
            }
        a.north = me ? a.north | p->offer : a.north & ~p->offer;
        a.offer = d.offer = 0;
        return gore_perft(&a, depth - 1) + gore_perft(&d, depth - 1);
    }
    int big = 0;
    for (int i = 0; i < 8; i++)
        big |= p->b[i] >= 3;
    if (!big)                           /* every hole under 3: the game is over */
        return 0;
    unsigned mine = me ? p->north : (uint8_t)~p->north;
    unsigned sows = 0;
    for (int i = 0; i < 8; i++)
        if ((mine >> i & 1) && p->b[i])
            sows |= 1u << i;
    if (!sows) {                        /* owns no seeds: forced pass */
        if (depth == 1)
            return 1;
        Gore c = *p;
        c.to_move = (uint8_t)(1 - me);
        return gore_perft(&c, depth - 1);
    }
    int owned = __builtin_popcount(mine);
    int kmax = p->store[1 - me] / 6;    /* the opponent can pay 6 per hole */
    if (kmax > 3)
        kmax = 3;
    if (kmax > owned - 1)               /* keep one hole */
        kmax = owned - 1;
    if (depth == 1) {
        int n = __builtin_popcount(sows);
        for (int k = 1; k <= kmax; k++)
            n += CHOOSE[owned][k];
        return (uint64_t)n;
    }
    uint64_t n = 0;
    for (int i = 0; i < 8; i++)
        if (sows >> i & 1) {
            Gore c = *p;
            gore_sow(&c, i);
            c.to_move = (uint8_t)(1 - me);
            n += gore_perft(&c, depth - 1);
        }
    for (unsigned m = kmax > 0 ? mine : 0; m; m = (m - 1) & mine) {  /* subsets of mine */
        if (__builtin_popcount(m) > kmax)
            continue;
        Gore c = *p;
        c.offer = (uint8_t)m;
        c.to_move = (uint8_t)(1 - me);
        n += gore_perft(&c, depth - 1);
    }
    return n;
}

/* ------------------------------------------------------------------ */
/* Djenon-aboure (§5): 12 holes, stores; a lap starts in the emptied hole. */

typedef struct {
    uint8_t b[12];
    int16_t store[2];
} Djenon;

/* CCW: a1..f1, f2..a2 = 0..5, 11..6 */
static const uint8_t DJ_NEXT[12] = {1, 2, 3, 4, 5, 11, 0, 6, 7, 8, 9, 10};
static const uint8_t DJ_PREV[12] = {6, 0, 1, 2, 3, 4, 7, 8, 9, 10, 11, 5};

static int djenon_sow(Djenon *p, int me, int h)
{
    uint8_t *b = p->b;
    int hand = b[h];
    b[h] = 0;
#if CYCLE_CHECK
    Cycle cyc;
    cyc.active = 0;
#endif
    for (int laps = 1;; laps++) {
#if CYCLE_CHECK
        if (laps >= CYCLE_START && cycle_seen(&cyc, b, 12, h, hand))
            return 0;
#endif
        b[h]++;                         /* the first seed back into the emptied hole */
        while (--hand) {
            h = DJ_NEXT[h];
            b[h]++;
        }
        int before = b[h] - 1;
        if (before == 0)
            return 1;
        if (before == 1 || before == 3) {   /* 2 or 4: capture, then backwards */
            int got = 0;
            while (b[h] == 2 || b[h] == 4) {
                got += b[h];
                b[h] = 0;
                h = DJ_PREV[h];
            }
            p->store[me] += got;
            return 1;
        }
        if (laps == LAP_LIMIT)
            return 0;
        hand = b[h];                    /* relay: lift h, sow again from h */
        b[h] = 0;
    }
}

static uint64_t djenon_perft(const Djenon *p, int me, int depth)
{
    int any = 0;
    for (int i = 0; i < 12; i++)
        any |= p->b[i] >= 2;
    if (!any)                           /* no hole holds 2 or more: over */
        return 0;
    uint64_t n = 0;
    int legal = 0;
    for (int o = 6 * me; o < 6 * me + 6; o++) {
        if (p->b[o] < 2)
            continue;
        Djenon c = *p;
        if (djenon_sow(&c, me, o)) {
            legal++;
            if (depth > 1)
                n += djenon_perft(&c, 1 - me, depth - 1);
        }
    }
    if (legal == 0)                     /* no legal sowing: forced pass */
        return depth == 1 ? 1 : djenon_perft(p, 1 - me, depth - 1);
    return depth == 1 ? (uint64_t)legal : n;
}

/* ------------------------------------------------------------------ */
/* Position text (docs/rules.md §1.5).                                      */

typedef struct {
    int board[36];      /* flat index order, a1 = 0 */
    int owner[36];      /* 0 South, 1 North */
    int store[2];
    int to_move;
    int offer;
} Parsed;

static void initial(Parsed *q)
{
    int H = G->rows * G->cols;
    memset(q, 0, sizeof *q);
    for (int i = 0; i < H; i++) {
        q->board[i] = G->seeds;
        q->owner[i] = i >= H / 2;
    }
}

/* Parse a row block "x,x,x/x,x,x" (counts) or "SSNN/NNSS" (owners) into flat order. */
static void parse_rows(const char *s, int *out, int letters, const char *what)
{
    int R = G->rows, C = G->cols;
    for (int r = R - 1; r >= 0; r--) {
        for (int c = 0; c < C; c++) {
            if (letters) {
                if (*s != 'S' && *s != 'N')
                    die("bad owner letter in %s", what);
                out[r * C + c] = *s++ == 'N';
            } else {
                if (c > 0 && *s++ != ',')
                    die("wrong column count in %s", what);
                if (*s < '0' || *s > '9')
                    die("a count is not a non-negative integer in %s", what);
                long v = 0;
                while (*s >= '0' && *s <= '9' && v <= 1000)
                    v = v * 10 + (*s++ - '0');
                if (v > 255)
                    die("a count above 255 in %s", what);
                out[r * C + c] = (int)v;
            }
        }
        if (r > 0 && *s++ != '/')
            die("wrong row or column count in %s", what);
    }
    if (*s)
        die("wrong row or column count in %s", what);
}

static void parse_position(char *text, Parsed *q)
{
    char *save = NULL;
    char *id = strtok_r(text, " ", &save);
    char *rows = strtok_r(NULL, " ", &save);
    char *side = strtok_r(NULL, " ", &save);
    if (!id || !rows || !side)
        die("position text too short: %s", text);
    if (strcmp(id, G->id) != 0)
        die("the position is for another game: %s", id);
    initial(q);
    parse_rows(rows, q->board, 0, "the rows");
    if (strcmp(side, "S") == 0)
        q->to_move = 0;
    else if (strcmp(side, "N") == 0)
        q->to_move = 1;
    else
        die("to-move must be S or N, not %s", side);
    for (char *kv; (kv = strtok_r(NULL, " ", &save));) {
        int has_stores = G->family == GORE || G->family == DJENON;
        if (has_stores && strncmp(kv, "stores=", 7) == 0) {
            char *end;
            long a = strtol(kv + 7, &end, 10);
            if (end == kv + 7 || *end != ',')
                die("bad stores: %s", kv);
            char *b = end + 1;
            long c = strtol(b, &end, 10);
            if (end == b || *end || a < 0 || c < 0 || a > 255 || c > 255)
                die("bad stores: %s", kv);
            q->store[0] = (int)a;
            q->store[1] = (int)c;
        } else if (G->family == GORE && strncmp(kv, "owners=", 7) == 0) {
            parse_rows(kv + 7, q->owner, 1, "owners");
        } else if (G->family == GORE && strncmp(kv, "offer=", 6) == 0) {
            for (char *s = kv + 6;;) {
                int c = s[0] - 'a', r = s[1] - '1';
                if (c < 0 || c >= G->cols || r < 0 || r >= G->rows)
                    die("bad offer square in %s", kv);
                q->offer |= 1 << (r * G->cols + c);
                s += 2;
                if (!*s)
                    break;
                if (*s++ != ',')
                    die("bad offer: %s", kv);
            }
        } else {
            die("unknown or misplaced key: %s", kv);
        }
    }
    int total = q->store[0] + q->store[1];
    for (int i = 0; i < G->rows * G->cols; i++)
        total += q->board[i];
    if (total > 255)
        die("%s: this yardstick keeps counts in uint8 (at most 255 seeds)", "position");
    if (q->offer) {                     /* made by the player not to move, from their holes */
        int bits = __builtin_popcount((unsigned)q->offer), owned_by_offerer = 0;
        for (int i = 0; i < 8; i++)
            if (q->owner[i] == 1 - q->to_move) {
                owned_by_offerer++;
                if (q->offer >> i & 1)
                    bits--;
            }
        if (bits != 0 || __builtin_popcount((unsigned)q->offer) > 3 ||
            __builtin_popcount((unsigned)q->offer) >= owned_by_offerer ||
            q->store[q->to_move] < 6 * __builtin_popcount((unsigned)q->offer))
            die("an offer the rules could not have produced: %s", "offer");
    }
}

/* ------------------------------------------------------------------ */

static uint64_t run(const Parsed *q, int depth)
{
    if (depth == 0)
        return 1;
    int C = G->cols, H = G->rows * C;
    switch (G->family) {
    case KATRO:
    case MPANTSAKA: {
        Board b;
        memset(&b, 0, sizeof b);
        for (int i = 0; i < H; i++)
            b.b[i / C * STRIDE + i % C] = (uint8_t)q->board[i];
        return G->family == KATRO ? katro_perft(&b, q->to_move, depth)
                                  : mpantsaka_perft(&b, q->to_move, depth);
    }
    case GORE: {
        Gore g;
        memset(&g, 0, sizeof g);
        for (int i = 0; i < 8; i++) {
            g.b[i] = (uint8_t)q->board[i];
            g.north |= (uint8_t)(q->owner[i] << i);
        }
        g.offer = (uint8_t)q->offer;
        g.to_move = (uint8_t)q->to_move;
        g.store[0] = (int16_t)q->store[0];
        g.store[1] = (int16_t)q->store[1];
        return gore_perft(&g, depth);
    }
    default: {
        Djenon d;
        memset(&d, 0, sizeof d);
        for (int i = 0; i < 12; i++)
            d.b[i] = (uint8_t)q->board[i];
        d.store[0] = (int16_t)q->store[0];
        d.store[1] = (int16_t)q->store[1];
        return djenon_perft(&d, q->to_move, depth);
    }
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: perft <game-id> <depth> [position-text]\n");
        return 2;
    }
    for (int k = 0; k < NUM_GAMES; k++)
        if (strcmp(argv[1], SPECS[k].id) == 0)
            G = &SPECS[k];
    if (!G)
        die("unknown game id %s", argv[1]);
    char *end;
    long depth = strtol(argv[2], &end, 10);
    if (end == argv[2] || *end || depth < 0 || depth > 1000)
        die("depth must be a non-negative integer, not %s", argv[2]);

    if (G->family == KATRO || G->family == MPANTSAKA)
        setup_rows_game();

    Parsed q;
    if (argc > 3) {
        size_t len = 0;
        for (int k = 3; k < argc; k++)
            len += strlen(argv[k]) + 1;
        char *text = malloc(len + 1);
        if (!text)
            die("%s", "out of memory");
        text[0] = '\0';
        for (int k = 3; k < argc; k++) {
            if (k > 3)
                strcat(text, " ");
            strcat(text, argv[k]);
        }
        parse_position(text, &q);
        free(text);
    } else {
        initial(&q);
    }

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t nodes = run(&q, (int)depth);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("nodes=%llu seconds=%.6f\n", (unsigned long long)nodes, s);
    return 0;
}
