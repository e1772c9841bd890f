/* Commands of the cuzk CLI. Each returns the process exit code:
 * 0 success, 1 a check or verification failed, 2 usage or bad input. */
#ifndef CUZK_CLI_H
#define CUZK_CLI_H

int cmd_demo(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
