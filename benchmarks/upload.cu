// Uploading a mesh's arrays from host memory the app already holds (the
// parser's std::vector) to the GPU, the ways an app can do it once:
//   pageable   cudaMemcpy from the vector as it is (the driver stages it);
//   register   cudaHostRegister the vector, cudaMemcpy, cudaHostUnregister;
//   pinned     cudaMallocHost a buffer, copy the vector into it on the host,
//              cudaMemcpy, cudaFreeHost (what "parse into pinned memory"
//              would cost, the parse's own copy aside);
//   staged     two pinned chunks allocated once, each filled on the host
//              while the other's copy runs (cudaMemcpyAsync, events).
// Each figure is the host's wall time from the first call to the data on the
// GPU (synchronized), every allocation, registration and release inside:
// the one-time cost an app pays. The first call of each method in the
// process is reported apart from the median of the later ones. Every upload
// is checked against the source, word for word, on the host.
//
// usage: bench_upload [--megabytes 60] [--runs 7]
// 60 MB is the armadillo after three Loop levels as a soup (1.66M positions,
// 3.33M faces).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_util.h"
#include "rxmesh/core/cuda_check.h"
#include "rxmesh/core/error.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

//! The upload of `host` (words) into `device`, one way.
using Upload = std::function<void(const std::vector<std::uint32_t>& host, std::uint32_t* device)>;

void pageable(const std::vector<std::uint32_t>& host, std::uint32_t* device)
{
    RXMESH_CHECK_CUDA(cudaMemcpy(device, host.data(), 4 * host.size(), cudaMemcpyHostToDevice));
}

void registered(const std::vector<std::uint32_t>& host, std::uint32_t* device)
{
    void* p = const_cast<std::uint32_t*>(host.data());
    RXMESH_CHECK_CUDA(cudaHostRegister(p, 4 * host.size(), cudaHostRegisterDefault));
    RXMESH_CHECK_CUDA(cudaMemcpy(device, host.data(), 4 * host.size(), cudaMemcpyHostToDevice));
    RXMESH_CHECK_CUDA(cudaHostUnregister(p));
}

void pinned_copy(const std::vector<std::uint32_t>& host, std::uint32_t* device)
{
    void* pinned = nullptr;
    RXMESH_CHECK_CUDA(cudaMallocHost(&pinned, 4 * host.size()));
    std::memcpy(pinned, host.data(), 4 * host.size());
    RXMESH_CHECK_CUDA(cudaMemcpy(device, pinned, 4 * host.size(), cudaMemcpyHostToDevice));
    RXMESH_CHECK_CUDA(cudaFreeHost(pinned));
}

//! Two pinned chunks of `chunk_bytes`: the host fills one while the copy of
//! the other runs.
void staged(const std::vector<std::uint32_t>& host, std::uint32_t* device, std::size_t chunk_bytes)
{
    const std::size_t words = chunk_bytes / 4;
    void*             buf[2];
    cudaEvent_t       done[2];
    cudaStream_t      stream;
    RXMESH_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int b = 0; b < 2; ++b) {
        RXMESH_CHECK_CUDA(cudaMallocHost(&buf[b], chunk_bytes));
        RXMESH_CHECK_CUDA(cudaEventCreateWithFlags(&done[b], cudaEventDisableTiming));
    }
    int k = 0;
    for (std::size_t at = 0; at < host.size(); at += words, k ^= 1) {
        const std::size_t n = std::min(words, host.size() - at);
        RXMESH_CHECK_CUDA(cudaEventSynchronize(done[k]));  // its last copy is over
        std::memcpy(buf[k], host.data() + at, 4 * n);
        RXMESH_CHECK_CUDA(
            cudaMemcpyAsync(device + at, buf[k], 4 * n, cudaMemcpyHostToDevice, stream));
        RXMESH_CHECK_CUDA(cudaEventRecord(done[k], stream));
    }
    RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
    for (int b = 0; b < 2; ++b) {
        RXMESH_CHECK_CUDA(cudaFreeHost(buf[b]));
        RXMESH_CHECK_CUDA(cudaEventDestroy(done[b]));
    }
    RXMESH_CHECK_CUDA(cudaStreamDestroy(stream));
}

//! \throw rxmesh::Error unless `device` holds `host`.
void verify(const std::vector<std::uint32_t>& host, const std::uint32_t* device,
            const std::string& name)
{
    std::vector<std::uint32_t> back(host.size());
    RXMESH_CHECK_CUDA(cudaMemcpy(back.data(), device, 4 * host.size(), cudaMemcpyDeviceToHost));
    if (back != host) throw rxmesh::Error("bench_upload: " + name + " uploaded other data");
}

struct Row
{
    std::string name;
    Upload      upload;
};

}  // namespace

int main(int argc, char** argv)
try {
    double   mb   = 60.0;
    int      runs = 7;
    CLI::App cli{"bench_upload: one-time uploads of host memory, pageable, registered, pinned "
                 "and staged",
                 "bench_upload"};
    cli.add_option("--megabytes", mb, "how much to upload (MB)")
        ->check(CLI::Range(0.001, 100000.0))
        ->capture_default_str();
    rxmesh::bench::add_runs(cli, runs);
    if (const int rc = rxmesh::bench::parse(cli, argc, argv); rc >= 0)
        return rc;
    const std::size_t words = std::size_t(mb * 1e6 / 4);
    std::vector<std::uint32_t> host(words);
    for (std::size_t i = 0; i < words; ++i) host[i] = std::uint32_t(i * 2654435761u);
    const auto ctx_start = Clock::now();
    RXMESH_CHECK_CUDA(cudaFree(nullptr));
    std::printf("CUDA context: %.1f ms\n", ms_since(ctx_start));
    std::uint32_t* device = nullptr;
    RXMESH_CHECK_CUDA(cudaMalloc(&device, 4 * words));

    const std::vector<Row> rows = {
        {"pageable", pageable},
        {"register", registered},
        {"pinned", pinned_copy},
        {"staged 4 MB", [](auto& h, auto* d) { staged(h, d, std::size_t(4) << 20); }},
        {"staged 16 MB", [](auto& h, auto* d) { staged(h, d, std::size_t(16) << 20); }},
    };
    std::printf("| method (%.1f MB) | first call ms | median ms of %d | GB/s (median) |\n", mb,
                runs);
    std::printf("|---|---|---|---|\n");
    for (const Row& row : rows) {
        std::vector<double> t;
        double              first = 0;
        for (int r = 0; r <= runs; ++r) {
            RXMESH_CHECK_CUDA(cudaMemset(device, 0, 4 * words));
            RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
            const auto start = Clock::now();
            row.upload(host, device);
            RXMESH_CHECK_CUDA(cudaDeviceSynchronize());
            const double ms = ms_since(start);
            verify(host, device, row.name);
            if (r == 0)
                first = ms;
            else
                t.push_back(ms);
        }
        const double median = rxmesh::bench::median(t);
        std::printf("| %s | %.2f | %.2f | %.1f |\n", row.name.c_str(), first, median,
                    4.0 * words / (median * 1e6));
    }
    RXMESH_CHECK_CUDA(cudaFree(device));
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
}
