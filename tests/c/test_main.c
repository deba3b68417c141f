/* Runs every C test group; the corpus directory (optional) is the first argument. */
#include <string.h>

#include "check.h"

int g_checks = 0;
int g_failures = 0;

void test_abi(void);
void test_fb_reader(void);
void test_planner(void);
void test_model(const char* corpus);
void test_interpreter(const char* corpus);
void test_delegate(const char* corpus);
void test_no_alloc(const char* corpus);
void test_threadpool(void);

int main(int argc, char** argv) {
  const char* corpus = argc > 1 ? argv[1] : NULL;
  const char* only = argc > 2 ? argv[2] : NULL;
  if (!only || !strcmp(only, "abi")) test_abi();
  if (!only || !strcmp(only, "fb_reader")) test_fb_reader();
  if (!only || !strcmp(only, "planner")) test_planner();
  if (!only || !strcmp(only, "model")) test_model(corpus);
  if (!only || !strcmp(only, "interpreter")) test_interpreter(corpus);
  if (!only || !strcmp(only, "delegate")) test_delegate(corpus);
  if (!only || !strcmp(only, "no_alloc")) test_no_alloc(corpus);
  if (!only || !strcmp(only, "threadpool")) test_threadpool();
  printf("%d checks, %d failed\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
