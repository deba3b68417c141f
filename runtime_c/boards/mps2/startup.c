/* Reset and fault vectors for the Arm MPS2 boards qemu-system-arm models (AN386 Cortex-M4,
 * AN500 Cortex-M7, AN505 Cortex-M33): copy .data from flash, clear .bss, enable the FPU, open the semihosting
 * console and run main; its return value becomes the semihosting exit status. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern uint32_t __stack_top, __etext, __data_start__, __data_end__, __bss_start__, __bss_end__;
extern int main(void);
extern void initialise_monitor_handles(void);

void el_board_reset(void);

static void el_board_fault(void) {
  /* A fault ends the run with a failure status instead of spinning until qemu is killed. */
  exit(3);
}

__attribute__((section(".vectors"), used)) static void (*const kVectors[16])(void) = {
    (void (*)(void))(uintptr_t)&__stack_top, el_board_reset, el_board_fault, el_board_fault,
    el_board_fault, el_board_fault, el_board_fault, 0, 0, 0, 0, el_board_fault, el_board_fault, 0,
    el_board_fault, el_board_fault};

void el_board_reset(void) {
  volatile uint32_t* const cpacr = (volatile uint32_t*)0xE000ED88u;
  *cpacr |= 0xFu << 20; /* full access to CP10/CP11, the FPU */
  __asm volatile("dsb\n\tisb");
  memcpy(&__data_start__, &__etext, (size_t)((char*)&__data_end__ - (char*)&__data_start__));
  memset(&__bss_start__, 0, (size_t)((char*)&__bss_end__ - (char*)&__bss_start__));
  initialise_monitor_handles();
  exit(main());
}
