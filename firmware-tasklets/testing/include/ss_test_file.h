/* A test's input files (vectors, plans, expected answers), for every harness: ss_test.h's
 * and the ISP tests' ss_check.h alike, hence a header of its own without CHECK. */
#ifndef SS_TEST_FILE_H
#define SS_TEST_FILE_H

#include <stddef.h>
#include <stdint.h>

/** The whole file at path, malloc'd with one byte to spare, its size in *len. Exits the
 *  test, naming the path, when it cannot be read. */
uint8_t *ss_test_read_file(const char *path, size_t *len);

#endif
