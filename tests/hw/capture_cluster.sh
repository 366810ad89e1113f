nvcc -arch=sm_90 -o p p.cu;nvcc -arch=sm_90 -cubin -o p.cubin p.cu;cuobjdump -sass p.cubin>$OUT/p.sass;./p>$OUT/run.txt 2>&1
m=smsp__inst_executed.sum,launch__grid_size
for o in ld st atom redas;do m=$m,smsp__sass_inst_executed_op_dshared_$o.sum,l1tex__t_requests_pipe_lsu_mem_dshared_op_$o.sum,l1tex__t_sectors_pipe_lsu_mem_dshared_op_$o.sum,l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_$o.sum,l1tex__m_xbar2l1tex_read_bytes_mem_dshared_op_$o.sum,l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_$o.sum;done
for o in ld st atom red;do m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_$o.sum;done
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum,l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_write.sum
ncu --clock-control none --csv --page raw --metrics $m ./p>$OUT/ncu.csv 2>$OUT/ncu.err;nvidia-smi --query-gpu=name,driver_version --format=csv>$OUT/v.txt;nvcc --version|tail -2>>$OUT/v.txt;ncu --version|tail -1>>$OUT/v.txt
