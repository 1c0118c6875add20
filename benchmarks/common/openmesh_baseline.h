// What an OpenMesh CPU baseline includes and its main(): OpenMP's header
// where OpenMP is on, OpenMesh's TriMesh and openmesh_soup.h where OpenMesh
// was found at build time (RXMESH_HAVE_OPENMESH), and the drivers' frame.
#pragma once

#include <cstdio>

#ifdef _OPENMP
#include <omp.h>
#endif

#ifdef RXMESH_HAVE_OPENMESH
#include <OpenMesh/Core/Mesh/TriMesh_ArrayKernelT.hh>

#include "openmesh_soup.h"
#endif

#include "bench_main.h"

namespace rxmesh::bench {

//! --threads resolved: 0 becomes every hardware thread; without OpenMP, 1,
//! with a note that the threaded `columns` ("column runs", "columns run")
//! on 1 thread.
inline void resolve_threads(int& threads, const char* columns)
{
    all_hardware_threads(threads);
#ifndef _OPENMP
    std::printf("note: built without OpenMP: the threaded %s on 1 thread\n", columns);
    threads = 1;
#else
    (void)columns;
#endif
}

//! The threads of the OpenMP loops that follow (none without OpenMP).
inline void set_threads(int threads)
{
#ifdef _OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
}

//! The main of an OpenMesh baseline: driver_main, then run(args) where
//! OpenMesh was found at build time, else a line that says so and exit
//! status 0. run is generic (auto&) so that it is looked up only where it
//! exists.
template <typename Args, typename AddOptions, typename Run>
int openmesh_main(int argc, char** argv, const About& about, AddOptions&& add_options, Run&& run)
{
    return driver_main<Args>(argc, argv, about, add_options, [&](Args& a) {
#ifdef RXMESH_HAVE_OPENMESH
        return run(a);
#else
        (void)run, (void)a;
        std::printf("OpenMesh not found at build time: %s has nothing to run\n", about.name);
        return 0;
#endif
    });
}

}  // namespace rxmesh::bench
