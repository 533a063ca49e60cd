/*
 * files.h - new files under the first free number: PREFIX-N.EXT, never an
 * overwrite. What w (a scene) and R (a trajectory and its series) write.
 */
#ifndef FILES_H
#define FILES_H

#include <stddef.h>
#include <stdio.h>

/// How many numbers files_create tries before it gives up.
#define FILES_TRIES 10000

/// Creates a file PREFIX-N.EXT for each of the @p count extensions in
/// @p ext (".scene"; ".xyz" and ".csv": one N for all), N the first
/// number from *@p next (below 1: from 1) for which none of them exists;
/// with @p bare_first, N = 1 is PREFIX.EXT itself (a name the user gave).
/// Created with "x": a name taken, even between the look and the open,
/// goes on to the next N.
/// @param f receives the streams, open for writing
/// @param names receives their names, each in a buffer of @p size bytes
/// @param failed on failure, the index of the file that could not be made
/// @return 0 with *next = N + 1; -1 with errno (EEXIST: FILES_TRIES numbers
/// from *next are all taken) and nothing left open or created.
int files_create(const char *prefix, const char *const ext[], int count, int bare_first,
                 int *next, FILE *f[], char *const names[], size_t size, int *failed);

#endif
