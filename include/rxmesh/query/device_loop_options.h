// How RXMesh::accumulate_scheduled_loop and for_each_scheduled_loop run their
// iterations, and what they did
// (query/scheduled_loop.cuh).
#pragma once

namespace rxmesh {

struct DeviceLoopOptions
{
    enum class Form { Auto, OneLaunch, Chunks };
    //! Auto: one cooperative launch wherever the device allows it and the
    //! schedule is short enough for it to pay (query/scheduled_loop.cuh),
    //! else chunks; OneLaunch: that launch wherever allowed, or an Error.
    Form form  = Form::Auto;
    int  chunk = 32;    // Chunks: iterations enqueued between looks at the stop flag
    bool graph = true;  // Chunks: each chunk a replayed CUDA graph
};

struct DeviceLoopReport
{
    long iterations = 0;
    bool one_launch = false;  // which form ran
};

}  // namespace rxmesh
