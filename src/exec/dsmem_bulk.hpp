// Bulk copies and reductions from shared::cta into a cluster CTA's shared memory
// (ops_dsmem_bulk.cpp), decoded for ops_async.cpp and ops_tma.cpp.
#pragma once

#include "exec/decode.hpp"

namespace warpscope::exec {

/// cp.async.bulk / cp.reduce.async.bulk .shared::cluster.shared::cta.mbarrier::complete_tx::bytes.
bool decode_dsmem_bulk(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);

}  // namespace warpscope::exec
