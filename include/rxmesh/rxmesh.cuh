// Everything a user of RXMesh needs, from a .cu file: mesh I/O and
// generators, the mesh with its queries (for_each, accumulate, query<Op>),
// attributes and their BLAS, export in input order.
#pragma once

#include "rxmesh/attribute/blas.cuh"
#include "rxmesh/export.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/io/io.h"
#include "rxmesh/rxmesh.h"
