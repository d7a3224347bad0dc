/* Bare-metal start for the test suite on mps2-an386 (Cortex-M4F):
 * vector table, FPU on, .data copied, .bss cleared, semihosting opened,
 * then main(); the exit code goes back to QEMU through semihosting. */
#include <stdint.h>
#include <stdlib.h>

extern uint32_t __data_start, __data_end, __data_load, __bss_start__, __bss_end__, __stack_top;
extern void initialise_monitor_handles(void);
extern int main(int argc, char **argv);

void reset_handler(void);
/* newlib's exit() runs the fini arrays and then calls _fini, which crti.o
 * would give us; we link with -nostartfiles, so provide empty ones. */
void _init(void);
void _fini(void);
void _init(void) {}
void _fini(void) {}
static void fault_handler(void);

/* Initial stack pointer, reset, NMI, HardFault, MemManage, BusFault, UsageFault. */
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(&__stack_top), reset_handler, fault_handler, fault_handler,
    fault_handler, fault_handler, fault_handler, 0, 0, 0, 0, fault_handler, fault_handler, 0,
    fault_handler, fault_handler,
};

static void fault_handler(void) {
    /* A trap in a test (unaligned access, bad pointer) ends the run as a failure. */
    _Exit(3);
}

void reset_handler(void) {
    volatile uint32_t *cpacr = (volatile uint32_t *)0xE000ED88u;
    uint32_t *src = &__data_load, *dst = &__data_start;
    *cpacr |= 0xFu << 20; /* CP10 and CP11: full access to the FPU */
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    while (dst < &__data_end) *dst++ = *src++;
    for (dst = &__bss_start__; dst < &__bss_end__; dst++) *dst = 0;
    initialise_monitor_handles();
    {
        static char prog[] = "plumbob-tests";
        char *argv[2] = {prog, 0};
        exit(main(1, argv));
    }
}
