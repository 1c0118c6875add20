// The forms of a device loop that tests of RXMesh's loop members run
// (query/device_loop_options.h): one cooperative launch, and host-enqueued
// chunks of `chunk` iterations with and without CUDA graphs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rxmesh/query/device_loop_options.h"

namespace rxmesh::test {

//! `chunk`: best not a divisor of the tests' iteration counts.
inline std::vector<std::pair<std::string, DeviceLoopOptions>> loop_forms(int chunk)
{
    DeviceLoopOptions one, chunks, plain;
    one.form    = DeviceLoopOptions::Form::OneLaunch;
    chunks.form = plain.form = DeviceLoopOptions::Form::Chunks;
    chunks.chunk = plain.chunk = chunk;
    plain.graph  = false;
    return {{"one launch", one}, {"chunks", chunks}, {"chunks without graphs", plain}};
}

}  // namespace rxmesh::test
