// Everything a user of RXMesh needs: mesh I/O, the mesh and its patch store,
// queries (for_each, kernel<Op>), attributes.
#pragma once

#include "rxmesh/io/io.h"
#include "rxmesh/io/generate.h"
#include "rxmesh/query/for_each.cuh"
#include "rxmesh/rxmesh.h"
